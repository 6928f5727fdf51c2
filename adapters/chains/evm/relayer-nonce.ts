// The relayer's nonce given by the service (server/ports/storage/relayer-nonces.ts) rather than read from
// the node inside the key's lock: the lock then holds one database transaction (take the nonce,
// sign, record in every payment's row), and the node's pending count, read before it, only moves
// the counter up when the chain is ahead. Gap repair: a nonce whose transaction will never reach
// the chain is filled by a 0-value transfer to the relayer itself, so the transactions signed
// after it are not stuck behind it.
import { Transaction, keccak256, type Provider, type TransactionLike, type Wallet } from 'ethers';
import type { NonceRecordResult, NonceRecordRow, RelayerNonces } from '../../../server/ports/storage/relayer-nonces.ts';
import { freshFees, type FeeLimits } from './gas-policy.ts';
import { sendRawTransaction } from './send-raw.ts';

/** The chain and key a submission signs with, when the service owns the key's nonces. */
export type NonceOwner = { caip2: string; provider: Provider; relayer: Wallet; limits: FeeLimits; nonces: RelayerNonces };

/** A 0-value transfer's gas: what any EVM chain charges for it. */
const FILLER_GAS = 21_000n;

/** Sends fillers of earlier gaps again; a refusal (known, nonce used) is the normal answer once one is in. */
function broadcastFillers(c: Pick<NonceOwner, 'provider'>, fillers: string[]): void {
  for (const raw of fillers) void sendRawTransaction(c.provider, raw).catch(() => undefined);
}

/**
 * Signs `fields` at the nonce the service gives and records the transaction in every row, in one
 * database transaction under the key's lock; null (nothing signed) when the node's pending count
 * could not be read. Throws what the database throws (the job runs again).
 */
export async function signAndRecordAtServiceNonce(
  c: NonceOwner,
  fields: Omit<TransactionLike<string>, 'nonce'>,
  rows: NonceRecordRow[],
  at: Date,
): Promise<NonceRecordResult | null> {
  let pending: number;
  try {
    pending = await c.provider.getTransactionCount(c.relayer.address, 'pending');
  } catch {
    return null;
  }
  const result = await c.nonces.signAndRecord(
    { chain: c.caip2, relayer: c.relayer.address },
    pending,
    async (nonce) => {
      const rawTx = await c.relayer.signTransaction(Transaction.from({ ...fields, nonce }));
      return { txId: keccak256(rawTx), rawTx };
    },
    rows,
    at,
  );
  broadcastFillers(c, result.fillers);
  return result;
}

/**
 * The recorded `rawTx` will never reach the chain (refused for good, or its payment ended unsent):
 * its nonce is filled, so the key's later transactions can mine. Best effort: a failure here
 * leaves the gap for the next abandonment or an operator (the doctor shows the stuck key).
 */
export async function abandonNonce(c: NonceOwner, rawTx: string): Promise<void> {
  try {
    const old = Transaction.from(rawTx);
    const fees = freshFees(await c.provider.getFeeData(), c.limits);
    const { capped: _capped, ...feeFields } = fees;
    const filler = await c.nonces.abandon({ chain: c.caip2, relayer: c.relayer.address }, old.nonce, (nonce) =>
      c.relayer.signTransaction(
        Transaction.from({
          to: c.relayer.address,
          value: 0n,
          data: '0x',
          gasLimit: FILLER_GAS,
          chainId: old.chainId,
          nonce,
          ...('gasPrice' in feeFields ? { type: 0, gasPrice: feeFields.gasPrice } : { type: 2, ...feeFields }),
        }),
      ),
    );
    if (filler) broadcastFillers(c, [filler]);
  } catch {
    // Left as it is: see above.
  }
}

/**
 * Broadcasts the transaction just recorded at the service's nonce. Outside the key's lock, another
 * worker's earlier nonce may not have reached the node yet; a node that queues future nonces (geth)
 * takes this one anyway, one that does not (an automining dev chain) refuses it: then the earlier
 * recorded transactions are sent first, in order (the same recorded bytes, which any step may
 * send), and this one once more.
 */
export async function broadcastAfterEarlier<S extends { state: string }>(c: Pick<NonceOwner, 'provider' | 'relayer'>, earlier: string[], broadcast: () => Promise<S>): Promise<S> {
  const first = await broadcast();
  if (first.state !== 'pending' || !earlier.length) return first;
  // Only the nonces the node has not counted: under many concurrent steps most earlier ones are in
  // already, and sending them again is a refusal each (thousands under load, issue 32).
  const counted = await c.provider.getTransactionCount(c.relayer.address, 'pending').catch(() => 0);
  for (const raw of earlier) if (Transaction.from(raw).nonce >= counted) await sendRawTransaction(c.provider, raw).catch(() => undefined);
  return broadcast();
}

/** The service's nonces for `c`, when it has them and every row can be named. */
export function nonceOwner(c: Omit<NonceOwner, 'caip2' | 'nonces'> & { caip2?: string; nonces?: RelayerNonces }): NonceOwner | null {
  return c.nonces && c.caip2 ? { caip2: c.caip2, provider: c.provider, relayer: c.relayer, limits: c.limits, nonces: c.nonces } : null;
}
