// Vitest's order for files it has no timings of (every CI run: a clean clone has no cache) is the
// largest file first. A short file can be a slow one (the key tool's runs child processes, 100 s
// for 107 lines): started last, it ran on alone while the other workers sat idle. The files that
// CI measured slowest (test/setup/file-durations.json) therefore start first, longest first, so
// the three workers end together; every other file keeps Vitest's own order, except that the files
// of the project that shares worker processes (isolate: false) come after the others, all together:
// a worker reuses its process only when the next file in the queue is also one of those.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file, from a CI run's report (tools/checks/slowest-test-files.ts --write refreshes it). */
export const DURATIONS_FILE = new URL('./file-durations.json', import.meta.url);

function knownDurations(): Map<string, number> {
  const { seconds } = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as { seconds: Record<string, number> };
  return new Map(Object.entries(seconds));
}

/**
 * The files with a known duration first, longest first; then the others in the order given, those
 * of a project that shares worker processes (not isolated) after the rest.
 */
export function longestFirst<T>(files: T[], seconds: (f: T) => number | undefined, isolated: (f: T) => boolean): T[] {
  const rank = (f: T) => seconds(f) ?? (isolated(f) ? -1 : -2);
  // Array.prototype.sort is stable: files of the same rank keep the order given.
  return [...files].sort((a, b) => rank(b) - rank(a));
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = knownDurations();
    return longestFirst(
      await super.sort(files),
      (f) => durations.get(relative(f.project.config.root, f.moduleId)),
      (f) => f.project.config.isolate,
    );
  }
}
