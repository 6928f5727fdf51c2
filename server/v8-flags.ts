/**
 * The V8 flag the API and worker processes run with (`npm start`, `npm run worker`; the benches start
 * the service with them too). It is not a cap: the heap can still grow to V8's own limit, so a
 * spike costs more collections, never a crash.
 *
 * - `--max-semi-space-size=16`: Node 24 sizes the young generation from the machine's memory
 *   (64 MB semi-spaces on a 24 GiB machine), which an idle process keeps committed and which
 *   lengthens each scavenge pause. Measured on the 2-core development VM, quiet: idle 308 → 214 MB,
 *   peak 467 → 372 MB, creates and status within the runs' noise; `npm run bench -- tail` longest
 *   GC pause 11–13 → 5–8 ms.
 *
 * Not kept: `--heap-growing-percent=75` (the old generation grows by 1.75x its live size between
 * full collections instead of up to 4x). It meets the memory goal (quiet machine: peak 408 →
 * 248 MB) but on the same quiet hour cost `npm run bench` status 1.09 → 0.78 (goal ≥ 0.85), creates
 * ×0.85 in the memory bench, and doubled the create p99 at a steady 1,000/s (6.4–7.3 → 9.5–18.3 ms,
 * longest GC pause 6–7 → 11–14 ms): its extra full collections' marking competes with requests for
 * the 2 cores. The memory goal needs less garbage promoted per request, not a GC policy; the flag
 * stays an operator's choice (docs/benchmarks.md, "npm run bench -- memory").
 *
 * Kept equal to package.json's start and worker scripts (checked by v8-flags.test.ts).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
