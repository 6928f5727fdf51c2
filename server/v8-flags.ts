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
 * - `--heap-growing-percent=75`: after each full collection V8 lets the old generation grow to up
 *   to 4× what survived before collecting again; the API's live heap is ~60–85 MB, so under
 *   create/status load the old generation reached 100–190 MB, nearly all garbage. Growing by 1.75×
 *   instead: `npm run bench -- memory` peak 328–365 → 231–233 MB (old space ~80 MB), for ~7 full
 *   collections in 15 s of load instead of 1–2, with the API's CPU per request unchanged within
 *   noise (235–253 against 234–261 ms per 1,000 requests, alternating runs). 50 % gave ~10 MB less
 *   at the peak but 286–321 ms per 1,000 requests: the extra full collections' marking.
 *   Figures: docs/benchmarks.md, "npm run bench -- memory".
 *
 * Kept equal to package.json's start and worker scripts (checked by v8-flags.test.ts).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=75'];
