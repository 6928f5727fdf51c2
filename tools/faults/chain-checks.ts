// The chain suite's own parts: the environment that points the service at the fault proxy's nodes, and
// the rows read from the chains themselves (never through the faulty nodes) after the drain.
import type pg from 'pg';
import { httpUpstream, type RpcFaultProxy } from '../chain-faults/index.ts';
import type { Row } from './checks.ts';

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const answer = await httpUpstream(url)(method, params);
  if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/** Whether an EVM transaction is mined, succeeded, in a block still on the canonical chain. */
async function evmCanonical(url: string, txHash: string): Promise<boolean> {
  const receipt = (await rpc(url, 'eth_getTransactionReceipt', [txHash])) as { status: string; blockNumber: string; blockHash: string } | null;
  if (!receipt || receipt.status !== '0x1') return false;
  const block = (await rpc(url, 'eth_getBlockByNumber', [receipt.blockNumber, false])) as { hash: string } | null;
  return block?.hash === receipt.blockHash;
}

/** Whether a Solana signature landed without error. */
async function solanaLanded(url: string, signature: string): Promise<boolean> {
  const answer = (await rpc(url, 'getSignatureStatuses', [[signature], { searchTransactionHistory: true }])) as { value: ({ err: unknown } | null)[] };
  const status = answer.value[0];
  return status !== null && status !== undefined && status.err === null;
}

/**
 * Phantom successes: payments the service calls `succeeded` whose transaction the chain does not
 * hold (dropped by a reorg, never mined, reverted), among those the load confirmed, unless the
 * payment itself says so (`finality: reversed`). Reversals are a row of their own.
 */
export async function phantomSuccesses(db: pg.Client, chainsUrl: string, paymentIds: string[]): Promise<Row[]> {
  const rows = await db.query<{ id: string; network: string | null; tx_id: string | null; finality: string | null }>(
    "SELECT id, network, tx_id, finality FROM payments WHERE id = ANY($1) AND status = 'succeeded'",
    [paymentIds],
  );
  const phantoms: string[] = [];
  for (const p of rows.rows) {
    if (p.finality === 'reversed') continue;
    const onChain = !p.tx_id ? false : p.network?.startsWith('solana:') ? await solanaLanded(`${chainsUrl}/solana`, p.tx_id) : await evmCanonical(`${chainsUrl}/evm`, p.tx_id);
    if (!onChain) phantoms.push(`${p.id} (${p.network ?? '?'} ${p.tx_id ?? 'no tx'}, finality ${p.finality ?? '-'})`);
  }
  const reversed = rows.rows.filter((p) => p.finality === 'reversed').length;
  const final = rows.rows.filter((p) => p.finality === 'final').length;
  return [
    {
      check: 'phantom successes (succeeded, not reversed, transaction not on the canonical chain)',
      expected: '0',
      actual: phantoms.length === 0 ? `0 of ${rows.rows.length}` : `${phantoms.length} of ${rows.rows.length}: ${phantoms.slice(0, 3).join(', ')}`,
      ok: phantoms.length === 0,
    },
    { check: 'succeeded payments final / reversed by a reorg (recorded on the payment)', expected: '(told)', actual: `${final} / ${reversed}`, ok: true },
  ];
}

/** The chains' variables with every RPC URL replaced by the proxy's nodes of that chain (several URLs per chain). */
export function throughProxy(chainsEnv: Record<string, string>, proxy: RpcFaultProxy): Record<string, string> {
  const evmUrls = JSON.parse(chainsEnv.EVM_RPC_URLS ?? '{}') as Record<string, unknown>;
  return {
    EVM_RPC_URLS: JSON.stringify(Object.fromEntries(Object.keys(evmUrls).map((chain) => [chain, proxy.evmUrls]))),
    SOLANA_RPC_URLS: JSON.stringify(proxy.solanaUrls),
    SOLANA_RPC_URL: proxy.solanaUrls[0]!,
  };
}

/** The most called methods with their calls per payment: where the RPC budget goes. */
function topMethods(calls: { method: string }[], per: (n: number) => string): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.method, (counts.get(c.method) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([m, n]) => `${m.replace(/^eth_/, '')} ${per(n)}`)
    .join(', ');
}

/** The p-th percentile of `values` (nearest rank), or '-' when none. */
function percentile(values: number[], p: number): string {
  if (!values.length) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return String(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
}

/** What the chain suite adds to the table: what the payments cost in RPC calls and options latency (told, not judged). */
export function chainRows(proxy: RpcFaultProxy, confirmed: number, optionsMs: number[]): Row[] {
  const per = (n: number) => (confirmed > 0 ? (n / confirmed).toFixed(1) : '-');
  const evm = proxy.calls({ chain: 'evm' });
  const solana = proxy.calls({ chain: 'solana' });
  const broadcasts = evm.filter((c) => c.method === 'eth_sendRawTransaction').length;
  return [
    { check: 'RPC calls per confirmed payment (EVM, Solana; all processes)', expected: '(told)', actual: `${per(evm.length)}, ${per(solana.length)}`, ok: true },
    { check: 'EVM broadcasts per confirmed payment', expected: '(told)', actual: `${per(broadcasts)}`, ok: true },
    { check: 'EVM calls per confirmed payment, top methods', expected: '(told)', actual: topMethods(evm, per), ok: true },
    {
      check: 'gateway options latency, ms (p50, p95, max)',
      expected: '(told)',
      actual: `${percentile(optionsMs, 50)}, ${percentile(optionsMs, 95)}, ${percentile(optionsMs, 100)}`,
      ok: true,
    },
  ];
}
