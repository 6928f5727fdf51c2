// The accounts the service pays fees from (EVM relayers, Solana fee payers) run dry silently: every
// gasless payment then stays processing. Their balances show in /readyz and, when low, in the logs.
import type { ChainPort, ServiceAccount } from '../ports/chains.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';

/** One account's line in /readyz `checks`, amounts as decimal strings of base units. */
export type AccountCheck = { ok: boolean; account: string; minimum: string } & ({ balance: string } | { error: 'rpc unreachable' });

export interface ServiceAccountChecks {
  /**
   * Keyed `<role> <CAIP-2>`, e.g. `relayer eip155:8453`, for a chain's first account of the role, and
   * `<role> <CAIP-2> #<n>` for the further keys of a relayer pool (n from 1, in EVM_RELAYER_KEYS
   * order; the address is in the line, never in a metric label); read at most once per cache period.
   */
  checks(): Promise<Record<string, AccountCheck>>;
}

export interface ServiceAccountOptions {
  ports: ChainPort[];
  clock: Clock;
  logger: Logger;
  /** How long balances read are reused: /readyz is polled often and must stay cheap (default 15 s). */
  cacheMs?: number;
  /** At most one warning per account per this long (default one minute). */
  warnEveryMs?: number;
  /** A node slower than this to answer reads as unreachable, so /readyz never hangs (default 3 s). */
  timeoutMs?: number;
}

type Read = { at: number; accounts: Promise<ServiceAccount[]> };

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export function createServiceAccountChecks(opts: ServiceAccountOptions): ServiceAccountChecks {
  const cacheMs = opts.cacheMs ?? 15_000;
  const warnEveryMs = opts.warnEveryMs ?? 60_000;
  const timeoutMs = opts.timeoutMs ?? 3_000;
  const ports = opts.ports.filter((p) => p.accounts !== undefined);
  const reads = new Map<ChainPort, Read>();
  /** The accounts each port listed last: a port that cannot answer at all still shows them, unreachable. */
  const known = new Map<ChainPort, ServiceAccount[]>();
  const warnedAt = new Map<string, number>();

  async function accountsOf(port: ChainPort, now: number): Promise<ServiceAccount[]> {
    let read = reads.get(port);
    if (!read || now - read.at >= cacheMs) {
      read = {
        at: now,
        accounts: withTimeout(
          Promise.resolve().then(() => port.accounts!()),
          timeoutMs,
        ),
      };
      reads.set(port, read);
    }
    try {
      const accounts = await read.accounts;
      known.set(port, accounts);
      return accounts;
    } catch {
      return (known.get(port) ?? []).map((a) => ({ ...a, balance: null }));
    }
  }

  function warn(key: string, a: ServiceAccount, now: number) {
    const last = warnedAt.get(key);
    if (last !== undefined && now - last < warnEveryMs) return;
    warnedAt.set(key, now);
    const fields = { role: a.role, chain: a.chain, account: a.account, balance: a.balance?.toString() ?? null, minimum: a.minimum.toString() };
    if (a.balance === null) opts.logger.warn(fields, 'could not read the balance of a service account; payments on its chain may stall');
    else opts.logger.warn(fields, 'service account balance below its minimum: top it up, or payments on its chain stall');
  }

  return {
    async checks() {
      const now = opts.clock.now();
      const lists = await Promise.all(ports.map((p) => accountsOf(p, now)));
      const out: Record<string, AccountCheck> = {};
      for (const a of lists.flat()) {
        const first = `${a.role} ${a.chain}`;
        let key = first;
        for (let n = 1; key in out; n++) key = `${first} #${n}`;
        const base = { account: a.account, minimum: a.minimum.toString() };
        const check: AccountCheck = a.balance === null ? { ok: false, ...base, error: 'rpc unreachable' } : { ok: a.balance >= a.minimum, ...base, balance: a.balance.toString() };
        out[key] = check;
        if (!check.ok) warn(key, a, now);
      }
      return out;
    },
  };
}
