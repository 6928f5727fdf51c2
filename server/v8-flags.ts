/**
 * V8 flags the API and worker processes run with (`npm start`, `npm run worker`; the benches start
 * the service with them too). Node 24 sizes the young generation from the machine's memory (64 MB
 * semi-spaces on a 24 GiB machine), which an idle process keeps committed and which lengthens
 * each scavenge pause. Capped at 16 MB, measured on the 2-core development VM, quiet:
 * `npm run bench -- memory` idle 308 → 214 MB and peak under create/status load 467 → 372 MB,
 * with creates and status within 0–9 % of the uncapped process (the runs disagree by that much);
 * `npm run bench -- tail` longest GC pause 11–13 → 5–8 ms, create p99 at a steady 1,000/s
 * 5.6–10.2 → 5.0–7.3 ms; `npm run bench` create ratio 0.86 → 0.83 (goal ≥ 0.80).
 * Kept equal to package.json's start and worker scripts (checked by v8-flags.test.ts).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
