// `npm run doctor`: checks the configuration the service would read, live, one PASS / WARN / FAIL
// line per check; exits 1 on any FAIL. Run it with the service's environment before a start or
// when something looks stuck. `--timeout-ms N` bounds each check (default 5000).
import { parseArgs } from 'node:util';
import { formatReport } from './report.ts';
import { runDoctor } from './run.ts';

const { values } = parseArgs({ options: { 'timeout-ms': { type: 'string', default: '5000' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('usage: npm run doctor [-- --timeout-ms N]   (reads the same environment as npm start)');
  process.exit(0);
}
const timeoutMs = Number(values['timeout-ms']);
if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000) {
  console.error('--timeout-ms must be an integer from 100 to 120000');
  process.exit(2);
}
const results = await runDoctor(process.env, timeoutMs);
console.log(formatReport(results));
// Open handles (a driver's reconnect timer) must not keep a finished doctor alive.
process.exit(results.some((r) => r.verdict === 'FAIL') ? 1 : 0);
