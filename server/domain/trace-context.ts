import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';

/**
 * The trace a piece of work belongs to: the request id of the HTTP request that caused it (or the
 * trace id of its W3C `traceparent`), carried into the outbox jobs and payment events it writes and
 * from them into the jobs and webhook deliveries they cause; and the payment it is about, if one.
 * Every log line written inside it carries both (see `traceLogFields`, the loggers' mixin).
 *
 * Held in an AsyncLocalStorage so no function signature has to pass it along: the storage adapter
 * reads it when writing jobs and events, the logger when writing a line.
 */
export interface TraceContext {
  readonly traceId?: string | undefined;
  readonly paymentId?: string | undefined;
}

const storage = new AsyncLocalStorage<TraceContext>();

/** Runs `fn` inside `ctx`: whatever it calls, awaits or schedules sees `ctx` (and only it). */
export function runInTrace<T>(ctx: TraceContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The trace of the work running now; undefined outside any. */
export function currentTrace(): TraceContext | undefined {
  return storage.getStore();
}

/** The trace id of the work running now, for a row written by it. */
export function currentTraceId(): string | undefined {
  return storage.getStore()?.traceId;
}

/** Runs `fn` in the current trace narrowed to one payment. */
export function withPayment<T>(paymentId: string, fn: () => T): T {
  return storage.run({ ...storage.getStore(), paymentId }, fn);
}

/**
 * Runs `fn` outside any trace: background loops (the webhook dispatcher) may be nudged from a
 * request, and what they do then is not that request's.
 */
export function outsideTrace<T>(fn: () => T): T {
  return storage.exit(fn);
}

/**
 * `fn` bound to the trace current now: for a callback an event emitter calls later, outside the
 * async chain that registered it.
 */
export function bindTrace<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  // Not AsyncLocalStorage.bind: Node defines a deprecated `asyncResource` accessor on each function it
  // binds, and V8 allocates accessor pairs in the old generation, so whatever `fn` closes over (a
  // request and its response) survived every young collection until a full one
  // (server/http/request-context.ts says more).
  const trace = storage.getStore();
  return trace === undefined ? (...args) => storage.exit(fn, ...args) : (...args) => storage.run(trace, fn, ...args);
}

/**
 * The fields a log line gets from the trace it is written in: the loggers' pino `mixin`. Called
 * only for lines that are written (pino checks the level first). A new object each time: pino
 * merges the line's own fields into it.
 */
export function traceLogFields(): object {
  const t = storage.getStore();
  if (!t) return {};
  const fields: { traceId?: string; paymentId?: string } = {};
  if (t.traceId !== undefined) fields.traceId = t.traceId;
  const paymentId = t.paymentId;
  if (paymentId !== undefined) fields.paymentId = paymentId;
  return fields;
}

/** Random bytes for ids, one system call per 4 KiB (256 trace ids). */
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;

/** `n` fresh random bytes in hex, each byte of the pool handed out once, refilled when spent. */
function freshHex(n: number): string {
  if (poolAt + n > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const hex = POOL.toString('hex', poolAt, poolAt + n);
  poolAt += n;
  return hex;
}

/**
 * A new trace id: 32 lower-case hex digits, so it is a W3C trace id as well as a request id. Every
 * request makes one, so its 128 random bits come from a pooled buffer, each byte handed out once
 * (as server/domain/ulid.ts does): `randomBytes(16)` per id was a system call per request (about
 * 18 µs on a loaded 2-core VM against 1 µs from the pool; 3–7 % of a create's CPU in
 * `npm run bench -- profile`).
 */
export function newTraceId(): string {
  return freshHex(16);
}

const W3C_TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;

/**
 * A `traceparent` header continuing this trace in an outgoing request (a webhook POST), with a new
 * parent id for that request; undefined when the trace id is not a W3C one (a caller's own
 * `Request-Id`), as a made-up mapping would join unrelated traces.
 */
export function traceparentFor(traceId: string | null | undefined): string | undefined {
  return traceId && W3C_TRACE_ID.test(traceId) ? `00-${traceId}-${freshHex(8)}-01` : undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** Longest header looked at: a version-00 traceparent is 55 characters; later versions may append fields. */
const MAX_TRACEPARENT = 512;

/**
 * A W3C `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header) parsed: its
 * trace id and the header to echo (its first four fields); undefined when it is absent or not one:
 * version ff, an all-zero trace or parent id, upper-case hex, anything malformed or too long. Version
 * 00 must be exactly its four fields; a later version may carry more after them, which are ignored
 * as the recommendation says.
 */
export function parseTraceparent(header: string | undefined): { traceId: string; echo: string } | undefined {
  if (!header || header.length > MAX_TRACEPARENT) return undefined;
  // Lower-case hex only, as the recommendation requires: an upper-case one is not a traceparent.
  const h = header.trim();
  const head = h.length > 55 && !h.startsWith('00-') && h[55] === '-' ? h.slice(0, 55) : h;
  const m = TRACEPARENT.exec(head);
  if (!m) return undefined;
  const [, version, traceId, parentId] = m;
  if (version === 'ff' || /^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return { traceId: traceId!, echo: head };
}
