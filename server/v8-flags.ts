/**
 * V8 flags the API and worker processes run with (`npm start`, `npm run worker`; the benches start
 * the service with them too). Neither is a cap: the heap can still grow to V8's own limit, so a
 * spike costs more collections, never a crash.
 *
 * - `--max-semi-space-size=16`: Node 24 sizes the young generation from the machine's memory
 *   (64 MB semi-spaces on a 24 GiB machine), which an idle process keeps committed and which
 *   lengthens each scavenge pause. Measured on the 2-core development VM, quiet: idle 308 → 214 MB,
 *   peak 467 → 372 MB, creates and status within the runs' noise; `npm run bench -- tail` longest
 *   GC pause 11–13 → 5–8 ms.
 * - `--heap-growing-percent=50`: after each full collection V8 lets the old generation grow to up
 *   to 4× what survived before collecting again; the API's live heap is ~60–85 MB, so under
 *   create/status load the old generation reached 105–190 MB, nearly all garbage. Growing by 1.5×
 *   instead: `npm run bench -- memory` peak 294–340 → 213–223 MB (old space ~70 MB), for ~5 full
 *   collections in 15 s of load instead of 0–1 (GC share of the load's time 5.8–8.7 % against
 *   4.6–7.3 %); CPU per request within the shared VM's noise (possibly up to ~10 % more).
 *   Figures: docs/benchmarks.md, "npm run bench -- memory".
 *
 * Kept equal to package.json's start and worker scripts (checked by v8-flags.test.ts).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=50'];
