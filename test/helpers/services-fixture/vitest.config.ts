import { defineConfig } from 'vitest/config';

/** Runs only the fixture services.test.ts inspects. */
export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.check.ts'], pool: 'forks' },
});
