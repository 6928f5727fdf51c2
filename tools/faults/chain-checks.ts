// The chain suite's own parts: the environment that points the service at the fault proxy's nodes, and
// the rows read from the chains themselves (never through the faulty nodes) after the drain.
import { loadavg } from 'node:os';
import { Contract, JsonRpcProvider, Wallet, id as topicOf, zeroPadValue, type HDNodeWallet } from 'ethers';
import type pg from 'pg';
import { FLOW_GAS } from '../../adapters/chains/evm/gas-policy.ts';
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
export function chainRows(proxy: RpcFaultProxy, confirmed: number, optionsMs: number[], askedAgain: number): Row[] {
  const per = (n: number) => (confirmed > 0 ? (n / confirmed).toFixed(1) : '-');
  const evm = proxy.calls({ chain: 'evm' });
  const solana = proxy.calls({ chain: 'solana' });
  const broadcasts = evm.filter((c) => c.method === 'eth_sendRawTransaction').length;
  return [
    { check: 'RPC calls per confirmed payment (EVM, Solana; all processes)', expected: '(told)', actual: `${per(evm.length)}, ${per(solana.length)}`, ok: true },
    { check: 'EVM broadcasts per confirmed payment', expected: '(told)', actual: `${per(broadcasts)}`, ok: true },
    { check: 'EVM calls per confirmed payment, top methods', expected: '(told)', actual: topMethods(evm, per), ok: true },
    { check: 'machine load average (1 min) at the end: read the latencies with it', expected: '(told)', actual: loadavg()[0]!.toFixed(1), ok: true },
    {
      check: 'gateway options latency, ms (p50, p95, max)',
      expected: '(told)',
      actual: `${percentile(optionsMs, 50)}, ${percentile(optionsMs, 95)}, ${percentile(optionsMs, 100)}`,
      ok: true,
    },
    {
      check: "options asked again once because the flow's chain was left out of the first answer",
      expected: '(told)',
      actual: `${askedAgain} of ${optionsMs.length - askedAgain}`,
      ok: true,
    },
  ];
}

type RpcTx = { hash: string; from: string; to: string | null };
type RpcReceipt = { status: string; gasUsed: string; effectiveGasPrice: string; blockHash: string };
const TRANSFER = topicOf('Transfer(address,address,uint256)');

/** EVM relayer payments succeeded (not reversed), by the flow the load paid them with. */
async function relayerPayments(db: pg.Client, confirmed: Map<string, string>): Promise<{ eip3009: number; permit2: number; transfer: number; txIds: Map<string, string> }> {
  const rows = await db.query<{ id: string; tx_id: string | null }>(
    "SELECT id, tx_id FROM payments WHERE id = ANY($1) AND status = 'succeeded' AND finality IS DISTINCT FROM 'reversed' AND network LIKE 'eip155:%'",
    [[...confirmed.keys()]],
  );
  const flows = rows.rows.map((r) => confirmed.get(r.id));
  const relayed = (id: string) => confirmed.get(id) === 'eip3009' || confirmed.get(id) === 'permit2';
  const txIds = new Map(rows.rows.filter((r) => relayed(r.id)).map((r) => [r.id, (r.tx_id ?? '').toLowerCase()]));
  const count = (flow: string) => flows.filter((f) => f === flow).length;
  // `transfer`: asked for a gasless flow, offered only the direct transfer, paid by the buyer's own transaction (load.ts).
  return { eip3009: count('eip3009'), permit2: count('permit2'), transfer: count('transfer'), txIds };
}

/**
 * Why relayer transactions and relayer payments differ in number: each payment's transaction read
 * from the chain by its id (who sent it), and the relayer's mined transactions that paid none of
 * them (a reversed payment's, a replaced one's). Fewer transactions than payments without batching
 * means some payment was settled by a transaction the relayer did not send.
 */
async function relayerAttribution(db: pg.Client, url: string, relayers: Set<string>, txIds: Map<string, string>, relayerTxs: Set<string>): Promise<Row> {
  const others: string[] = [];
  for (const [paymentId, txId] of txIds) {
    if (relayerTxs.has(txId)) continue;
    const tx = txId ? ((await rpc(url, 'eth_getTransactionByHash', [txId])) as RpcTx | null) : null;
    // The flow of the option the payment was confirmed with, as the service stored it: which offer the buyer really took.
    const quote = await db.query<{ flow: string | null; buyer: string | null }>(
      "SELECT q.state->>'flow' AS flow, p.buyer_account AS buyer FROM payments p LEFT JOIN payment_quotes q ON q.option_id = p.option_id WHERE p.id = $1",
      [paymentId],
    );
    const { flow, buyer } = quote.rows[0] ?? { flow: null, buyer: null };
    const from = tx?.from.toLowerCase();
    const sender = !from ? 'nowhere' : relayers.has(from) ? 'the relayer (not in a canonical block read)' : buyer?.toLowerCase().endsWith(from) ? 'its buyer' : from.slice(0, 12);
    others.push(`${paymentId} (option ${flow ?? '?'}) by ${txId ? txId.slice(0, 12) : 'no tx'}… from ${sender}, to ${tx?.to?.slice(0, 10) ?? '?'}`);
  }
  const paying = new Set(txIds.values());
  const unpaid = [...relayerTxs].filter((h) => !paying.has(h)).length;
  return {
    check: 'relayer payments settled by a transaction the relayer did not send; relayer transactions paying no counted payment',
    expected: '(told)',
    actual: `${others.length}${others.length ? ` (${others.slice(0, 3).join(', ')})` : ''}; ${unpaid}`,
    ok: true,
  };
}

/**
 * What the relayer spent, read from the chain itself (every block of the run, the relayer's
 * transactions and their receipts): transactions and gas per payment against the flows' normal
 * cost (gas-policy.ts `typical`), and gas spent on transactions that reverted (paid for nothing).
 * And double payments: token transfers into the merchant's EVM address beyond one per succeeded
 * payment (read from the chain's logs, never through the faulty nodes).
 */
export async function relayerRows(
  db: pg.Client,
  chainsUrl: string,
  input: { relayers: string[]; merchant: string; tokens: string[]; confirmed: Map<string, string> },
): Promise<Row[]> {
  const url = `${chainsUrl}/evm`;
  const head = Number(await rpc(url, 'eth_blockNumber', []));
  // Every key of the pool: counting one key's transactions would hide the others' gas and count.
  const relayers = new Set(input.relayers.map((a) => a.toLowerCase()));
  let txs = 0;
  let reverted = 0;
  let gas = 0n;
  let wasted = 0n;
  const relayerTxs = new Set<string>();
  for (let n = 1; n <= head; n++) {
    const block = (await rpc(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true])) as { transactions: RpcTx[] } | null;
    for (const tx of block?.transactions ?? []) {
      if (!relayers.has(tx.from.toLowerCase())) continue;
      const receipt = (await rpc(url, 'eth_getTransactionReceipt', [tx.hash])) as RpcReceipt | null;
      if (!receipt) continue;
      relayerTxs.add(tx.hash.toLowerCase());
      txs++;
      gas += BigInt(receipt.gasUsed);
      if (receipt.status !== '0x1') {
        reverted++;
        wasted += BigInt(receipt.gasUsed);
      }
    }
  }
  const paid = await relayerPayments(db, input.confirmed);
  const payments = paid.eip3009 + paid.permit2;
  const normal = payments > 0 ? (BigInt(paid.eip3009) * FLOW_GAS.eip3009.typical + BigInt(paid.permit2) * FLOW_GAS.permit2.typical) / BigInt(payments) : 0n;
  const per = (v: bigint | number) => (payments > 0 ? (Number(v) / payments).toFixed(payments > 0 && typeof v === 'number' ? 2 : 0) : '-');
  const perGas = payments > 0 ? gas / BigInt(payments) : 0n;
  const transfersIn = await countTransfersTo(url, input.tokens, input.merchant, head);
  // Each succeeded EVM payment, relayed or paid by the buyer's own transfer, moved its amount in once.
  const doubles = transfersIn - payments - paid.transfer;
  return [
    {
      check: 'double payments (EVM token transfers into the merchant beyond one per succeeded payment)',
      expected: '0',
      actual: `${doubles} (${transfersIn} transfers, ${payments + paid.transfer} payments, ${paid.transfer} of them by the buyer's own transfer)`,
      ok: doubles === 0,
    },
    { check: 'relayer transactions per relayer payment (mined, all outcomes)', expected: '(told)', actual: `${per(txs)} (${txs} for ${payments})`, ok: true },
    await relayerAttribution(db, url, relayers, paid.txIds, relayerTxs),
    {
      check: "relayer gas per payment against the flows' normal cost (gas-policy typical)",
      expected: `at most ${normal} × 1.5`,
      actual: `${perGas}`,
      ok: payments === 0 || perGas * 2n <= normal * 3n,
    },
    { check: 'relayer gas wasted on reverted transactions', expected: '(told)', actual: `${wasted} gas in ${reverted} transaction(s)`, ok: true },
  ];
}

/** Token transfers (Transfer logs) into `to` on the tokens, from block 0 to `head` (the chain's own node: no range cap). */
async function countTransfersTo(url: string, tokens: string[], to: string, head: number): Promise<number> {
  const logs = (await rpc(url, 'eth_getLogs', [
    { address: tokens, fromBlock: '0x0', toBlock: `0x${head.toString(16)}`, topics: [TRANSFER, null, zeroPadValue(to, 32)] },
  ])) as unknown[];
  return logs.length;
}

/** Permit2 first-timers (every load buyer is fresh; half do not wait for their approval): all must be paid. */
export async function permit2FirstTimerRow(db: pg.Client, confirmed: Map<string, string>, started: number): Promise<Row> {
  const ids = [...confirmed].filter(([, flow]) => flow === 'permit2').map(([id]) => id);
  const done = await db.query<{ n: string }>("SELECT count(*) AS n FROM payments WHERE id = ANY($1) AND status = 'succeeded'", [ids]);
  const paid = Number(done.rows[0]!.n);
  return {
    check: 'Permit2 first-timers paid (approval sent by the buyer, half of them not awaited before confirm)',
    expected: `${started} (100 %)`,
    actual: `${paid}`,
    ok: started > 0 && paid === started,
  };
}

/**
 * The merchant empties its EVM address: gas money from the faucet, then every token balance sent
 * to a fresh address (straight to the chain, as the merchant's own wallet would). Answers what
 * left, per asset (CAIP-19).
 */
export async function sweepAddress(chainsUrl: string, merchant: HDNodeWallet, assets: { asset: string }[]): Promise<Map<string, bigint>> {
  const chainId = Number(assets[0]!.asset.split('/')[0]!.split(':')[1]);
  const provider = new JsonRpcProvider(`${chainsUrl}/evm`, chainId, { staticNetwork: true, cacheTimeout: -1 });
  const swept = new Map<string, bigint>();
  try {
    const res = await fetch(`${chainsUrl}/sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: `eip155:${chainId}:${merchant.address}`, asset: null, value: (10n ** 17n).toString() }),
    });
    if (!res.ok) throw new Error(`faucet answered ${res.status}`);
    const wallet = merchant.connect(provider);
    const elsewhere = Wallet.createRandom().address;
    for (const { asset } of assets) {
      // No return value declared: the sandbox's USDT, like Tether's, returns none.
      const token = new Contract(asset.split(':').at(-1)!, ['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256)'], wallet);
      const balance = (await token.getFunction('balanceOf')(merchant.address)) as bigint;
      if (balance === 0n) continue;
      const tx = (await token.getFunction('transfer')(elsewhere, balance)) as { wait(): Promise<{ status: number | null } | null> };
      const receipt = await tx.wait();
      if (receipt?.status !== 1) throw new Error(`the sweep of ${asset} reverted`);
      swept.set(asset, balance);
    }
    return swept;
  } finally {
    provider.destroy();
  }
}
