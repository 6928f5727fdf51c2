import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Runs only the fixture services.test.ts inspects (its cache outside the tree). */
export default defineConfig({
  cacheDir: join(tmpdir(), 'mps-services-fixture-cache'),
  test: { root: import.meta.dirname, include: ['*.check.ts'], pool: 'forks' },
});
