// Lint keeps the hand-written code honest; generated code is checked by gen:check instead.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.node24/', 'generated/', '**/dist/', 'data/', 'coverage/', '.cache/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // Tests read JSON answers whose shape the assertions themselves check.
    files: ['**/*.test.ts', 'test/**/*.ts', 'contract-tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
