// knip (`npm run check:unused`): files nothing reaches, exports nothing imports, dependencies nothing
// uses. Entries are what runs on its own; knip's vitest, eslint and npm-script plugins add the tests,
// the configs and the `node <file>` scripts of every package.json.
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': {
      entry: [
        'tools/**/cli.ts',
        // Benchmark servers and load generators run.ts and webhooks.ts start as child processes.
        'tools/bench/*.ts',
        'tools/checks/*.ts',
        'scripts/*.ts',
        // Child processes tests start by file name (crash tests, the runtime's open-and-close run).
        'server/jobs/test-support/outbox-child.ts',
        'server/composition/test-support/open-close.ts',
        // The standalone sandbox chains a test worker shares, started by file name (tools/chain-faults/standalone.ts).
        'tools/chain-faults/shared-chains-child.ts',
        // The fixture project test/helpers/services.test.ts runs vitest on.
        'test/helpers/services-fixture/*.ts',
        // The buyer pages' browser scripts, served as files; the wallet script's source, bundled by scripts/build-pages.ts.
        'server/pages/static/*.js',
        'server/pages/wallet-page/main.ts',
        'server/dashboard/static/*.js',
      ],
      project: ['**/*.{ts,js,cjs}', '!generated/**', '!compat/reference/**', '!server/pages/static/wallet.js'],
      // spec/*.tsp import the TypeSpec libraries; scripts/generate.ts runs their compiler by path.
      // /docs serves redoc's browser bundle as a file (server/pages/docs-page.ts), and
      // tools/checks/openapi-lint.ts runs @redocly/cli's bin by path.
      ignoreDependencies: ['@typespec/.+', 'redoc', '@redocly/cli'],
    },
    'clients/wallet': {
      entry: ['src/index.ts', 'src/ethers.ts', 'src/solana.ts'],
      project: ['src/**/*.ts'],
    },
    'clients/partner': {
      entry: ['src/index.ts', 'scripts/*.ts'],
      project: ['src/**/*.ts', 'scripts/**/*.ts', '!src/generated/**'],
    },
  },
  // The HTTPS test servers make their throwaway certificate with the system's openssl; the fault
  // suite starts its own PostgreSQL (found through pg_config) and redis-server.
  ignoreBinaries: ['openssl', 'pg_config', 'redis-server'],
  // An export its own file also uses is alive, just visible (often for a test's sake); exports
  // nothing uses anywhere are still reported.
  ignoreExportsUsedInFile: true,
};

export default config;
