// Lint keeps the hand-written code honest; generated code is checked by gen:check instead.
// TypeScript is linted with type information (typescript-eslint's type-checked rules), so a promise
// nobody awaits, a promise passed where a callback's result is ignored, or an await on a non-promise
// is an error rather than a silent bug.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', '.node24/', 'generated/', '**/dist/', 'data/', 'coverage/', '.cache/', 'test-results/', 'clients/*/src/generated/', 'server/pages/static/wallet.js'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      // In-memory adapters, fakes and handlers implement async ports without awaiting anything;
      // `async` keeps their throws as rejections, which is what callers of a port expect.
      '@typescript-eslint/require-await': 'off',
      // Passing on what a catch or an AbortSignal handed us (typed unknown/any) is forwarding an error,
      // not making one; rejecting with a string or a plain object is still an error.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // Plain JavaScript (this file, tool configs, the buyer pages' browser scripts) has no types to check.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
  {
    // Tests read JSON answers whose shape the assertions themselves check, and take harness
    // functions (closures, not class methods) apart by destructuring.
    files: ['**/*.test.ts', 'test/**/*.ts', 'contract-tests/**/*.ts', '**/test-support/**/*.ts', '**/test-support.ts', '**/test-fixtures.ts', 'adapters/*/conformance/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
