// Prints the test files that took longest, from a Vitest JSON report, so CI's log says where the
// test phase's time goes (issue 34 item 8) without a second run. Not a check: it never fails the
// build over time; a missing or unreadable report is said and ignored.
//
// Usage: node tools/checks/slowest-test-files.ts <vitest-report.json> [count] [--write <durations.json>]
// --write also records those files' seconds for the test order (test/setup/longest-first.ts):
// refresh test/setup/file-durations.json from a CI run's report when the slow files change.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Report {
  testResults?: { name: string; startTime?: number; endTime?: number; assertionResults?: unknown[] }[];
}

const args = process.argv.slice(2);
const writeAt = args.indexOf('--write');
const writeTo = writeAt >= 0 ? args.splice(writeAt, 2)[1] : undefined;
const [file, countArg] = args;
if (!file) {
  console.error('usage: slowest-test-files.ts <vitest-report.json> [count]');
  process.exit(2);
}

let report: Report;
try {
  report = JSON.parse(readFileSync(file, 'utf8')) as Report;
} catch (err) {
  console.log(`no per-file timings: ${file} could not be read (${(err as Error).message})`);
  process.exit(0);
}

const rows = (report.testResults ?? [])
  .map((r) => ({ name: relative(process.cwd(), r.name), ms: (r.endTime ?? 0) - (r.startTime ?? 0), tests: r.assertionResults?.length ?? 0 }))
  .sort((a, b) => b.ms - a.ms);
const total = rows.reduce((sum, r) => sum + r.ms, 0);
const count = Number(countArg ?? 20);

console.log(
  `${rows.length} test files, ${(total / 1000).toFixed(0)} s in all as Vitest times each file's run (start-up, imports and collection are not in it; files run in parallel)`,
);
for (const r of rows.slice(0, count)) {
  console.log(`${(r.ms / 1000).toFixed(1).padStart(7)} s  ${String(r.tests).padStart(4)} tests  ${r.name}`);
}

if (writeTo) {
  const seconds = Object.fromEntries(rows.slice(0, count).map((r) => [r.name, Math.round(r.ms / 100) / 10]));
  const source = `${file}, the ${count} slowest of ${rows.length} files (seconds per file as the Vitest JSON report times it)`;
  writeFileSync(writeTo, `${JSON.stringify({ source, seconds }, null, 2)}\n`);
  console.log(`wrote ${writeTo}`);
}
