// What a test holds to steer the faults of one set of nodes, whichever transport they are on
// (the HTTP proxy, or the in-process wrapper): set and clear rules, read the calls, release
// what was held.
import type { CallRecord, FaultEngine, HeldBroadcast } from './engine.ts';
import type { ChainKind, Fault, FaultScope, NodeRef } from './faults.ts';
import type { RpcOutcome } from './upstream.ts';

export interface CallFilter {
  chain?: ChainKind;
  node?: number;
  method?: string;
  /** Only calls at or after this time (ms since the epoch). */
  since?: number;
}

export interface FaultControl {
  /** Adds a fault; the newest rule wins where two would answer. Answers a handle that removes it. */
  set(ref: NodeRef, fault: Fault, scope?: FaultScope): { id: number; clear(): void };
  /** Removes every rule, or the rules set for exactly `ref`. */
  clear(ref?: NodeRef): void;
  /** The calls the nodes received (each JSON-RPC request of a batch is one), oldest first. */
  calls(filter?: CallFilter): CallRecord[];
  clearCalls(): void;
  /** Broadcasts accepted and held by a `hold-broadcasts` fault. */
  held(): readonly HeldBroadcast[];
  /** Forwards the held broadcasts to the real node, in order; answers the node's outcomes. */
  release(chain?: ChainKind): Promise<RpcOutcome[]>;
}

const matches = (c: CallRecord, f: CallFilter) =>
  (f.chain === undefined || c.chain === f.chain) &&
  (f.node === undefined || c.node === f.node) &&
  (f.method === undefined || c.method === f.method) &&
  (f.since === undefined || c.at >= f.since);

/** The control of an engine; `accept` may refuse faults its transport cannot act out. */
export function controlOf(engine: FaultEngine, accept: (fault: Fault) => void = () => {}): FaultControl {
  return {
    set(ref, fault, scope) {
      accept(fault);
      const rule = engine.rules.add(ref, fault, scope);
      return { id: rule.id, clear: () => engine.rules.remove(rule.id) };
    },
    clear: (ref) => engine.rules.clear(ref),
    calls: (filter = {}) => engine.calls().records.filter((c) => matches(c, filter)),
    clearCalls: () => engine.clearCalls(),
    held: () => engine.heldBroadcasts(),
    release: (chain) => engine.release(chain),
  };
}
