import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** Consumers first (they write the pacts), then the provider verification reads them. */
class ConsumersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => (f.moduleId.includes(`${path.sep}consumers${path.sep}`) ? 0 : 1);
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    root: path.resolve(import.meta.dirname, '..'),
    include: ['contract-tests/consumers/**/*.pact.test.ts', 'contract-tests/provider/**/*.test.ts'],
    globalSetup: ['contract-tests/global-setup.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    fileParallelism: false,
    sequence: { sequencer: ConsumersFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
