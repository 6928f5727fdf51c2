import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/longest-first.ts';
import { SHARED_PROCESS_FILES } from './test/setup/shared-process-files.ts';

const include = ['server/**/*.test.ts', 'adapters/**/*.test.ts', 'clients/*/src/**/*.test.ts', 'tools/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  test: {
    // Two projects, the same settings but one: each file of `isolated` runs in a process of its own;
    // the files of `shared` (test/setup/shared-process-files.ts, the rule is there) reuse a worker
    // one after the other, so the modules they import are loaded once per worker, not once per file.
    projects: [
      { extends: true, test: { name: 'isolated', include, exclude: [...configDefaults.exclude, ...SHARED_PROCESS_FILES] } },
      { extends: true, test: { name: 'shared', include: SHARED_PROCESS_FILES, isolate: false } },
    ],
    // One migrated embedded database per run that every embedded store starts from (initdb and the
    // migrations once, not once per store).
    globalSetup: ['test/setup/pglite-template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every file is a fresh process that compiles PGlite's WebAssembly, and V8 compiles it twice:
    // Liftoff, then its optimizing tier, whose compile time a file's few hundred queries never earn
    // back. Liftoff alone is the same code (only the compiler tier differs); paired on three
    // PGlite-heavy files it took 13% less CPU for the same results (see also run-keys.ts).
    execArgv: ['--liftoff-only'],
    // Vitest's default is one worker per core but one, which is a single worker on CI's two cores,
    // and most of a test file's wall time is spent waiting (on chains, child processes, queues, long
    // polls), not on the CPU: three files at once keep both cores busy (issue 34 item 8).
    // VITEST_MAX_WORKERS overrides it (e.g. 1 to see one file's timings alone).
    maxWorkers: 3,
    // The files CI measured slowest start first, so no long file starts last and runs on alone.
    sequence: { sequencer: LongestFirstSequencer },
    // expect.poll waits on real browsers, chains and queues; its default second is a fraction of
    // what a page load takes on a busy two-core machine (CI once failed on exactly that).
    expect: { poll: { timeout: 15_000 } },
  },
});
