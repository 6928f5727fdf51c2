// `npm run lint:openapi`: Redocly's recommended rules (redocly.yaml) over every published OpenAPI
// document. Redocly exits 0 on warnings; the bar here is 0 errors and 0 warnings, so this reads its
// JSON report and fails on any problem, printing each with its rule and place.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, 'generated/openapi');
const redocly = join(root, 'node_modules/@redocly/cli/bin/cli.js');
let failed = false;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  let out: string;
  try {
    out = execFileSync(process.execPath, [redocly, 'lint', join(dir, file), '--format=json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    out = (err as { stdout?: string }).stdout ?? '';
  }
  const report = JSON.parse(out) as { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };
  const { errors, warnings, ignored } = report.totals;
  console.log(`${file}: ${errors} errors, ${warnings} warnings, ${ignored} ignored`);
  for (const p of report.problems) console.log(`  ${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
  if (errors + warnings + ignored > 0) failed = true;
}
if (failed) {
  console.error('OpenAPI lint: every problem above must be fixed in spec/ (none may be ignored)');
  process.exit(1);
}
