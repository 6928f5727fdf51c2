// `npm run check:length`: a hand-written source file over 300 lines says why in its first 3 lines,
// with a comment `// Long because: <reason>` (or `* Long because:` inside a block comment). Long files
// are usually several things in one; the reason makes keeping one a decision rather than drift.
// Generated files (generated/, clients/*/src/generated/, the payment page's bundled wallet script) are exempt.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_LINES = 300;
const SOURCE = /\.(ts|tsp|js|cjs|mjs)$/;
const GENERATED = /^generated\/|^clients\/[^/]+\/src\/generated\/|^server\/pages\/static\/wallet\.js$/;
/** The reason line: a comment starting `Long because:` followed by some text. */
const REASON = /^\s*(\/\/|\/?\*+)\s*Long because:\s*\S/;

const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);

const long: Array<{ file: string; lines: number; reason: string | undefined }> = [];
for (const file of tracked) {
  if (!SOURCE.test(file) || GENERATED.test(file)) continue;
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  const lines = text.split('\n');
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count <= MAX_LINES) continue;
  const reason = lines.slice(0, 3).find((line) => REASON.test(line));
  long.push({ file, lines: count, reason: reason?.replace(/^.*?Long because:\s*/, '') });
}

long.sort((a, b) => b.lines - a.lines);
for (const { file, lines, reason } of long) console.log(`${String(lines).padStart(5)}  ${file}  ${reason ? `long because: ${reason}` : 'NO REASON'}`);
const missing = long.filter((f) => !f.reason);
console.log(`\n${long.length} file(s) over ${MAX_LINES} lines, ${missing.length} without a reason.`);
if (missing.length) {
  console.error(`Add a "// Long because: ..." line within the first 3 lines of (or split):\n${missing.map((f) => `  ${f.file} (${f.lines} lines)`).join('\n')}`);
  process.exitCode = 1;
}
