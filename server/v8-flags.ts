/**
 * The V8 flags the API and worker processes run with (`npm start`, `npm run worker`; the benches start
 * the service with them too). Neither is a cap: the heap can still grow to V8's own limit, so a
 * spike costs more collections, never a crash.
 *
 * - `--max-semi-space-size=8`: Node 24 sizes the young generation from the machine's memory
 *   (64 MB semi-spaces on a 24 GiB machine), which an idle process keeps committed and which
 *   lengthens each scavenge pause. 16 first (quiet VM: idle 308 → 214 MB, peak 467 → 372 MB,
 *   creates and status within the runs' noise), then 8 (issue 33: the young generation is
 *   committed whole at idle and at the peak, 32 → 16 MB): on the loaded VM, two alternating runs
 *   of `npm run bench -- memory`, idle 224–238 against 241–247 MB, peak 233–242 against 243–254 MB,
 *   about 3× the young collections (84–85 against 28–30 in 15 s) for the same GC share of the
 *   time, and CPU per 1,000 requests 444–445 against 488–491 ms (docs/benchmarks.md).
 * - `--heap-growing-percent=75`: the old generation grows to 1.75× what survived the last full
 *   collection before the next one, instead of up to 4×. It was measured and taken out once, when
 *   every request was promoted to the old generation (full collections then cost status −28 % and
 *   doubled the create tail); since requests no longer survive young collections
 *   (server/http/request-context.ts says why they did), full collections are rare and cheap: quiet
 *   machine, `npm run bench -- memory` peak 367–383 → 245–248 MB, creates ×1.00, status ×0.92,
 *   CPU per request +3–5 %; `npm run bench` create 0.99, status 1.08; `npm run bench -- tail` 1.38
 *   (docs/benchmarks.md has the runs).
 *
 * Kept equal to package.json's start and worker scripts (checked by v8-flags.test.ts).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=75'];
