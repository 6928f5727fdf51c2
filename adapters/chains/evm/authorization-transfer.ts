// What one EIP-3009 authorization moved in a receipt, by its own events: the token's
// `AuthorizationUsed(authorizer, nonce)` and the `Transfer` the same call emitted right after it
// (FiatToken marks the authorization used, then transfers). A receipt may carry several payments
// (a batch), even two from one buyer to one merchant: a sum over every matching Transfer would let
// one payment's transfer credit the other, so each is paired with its own authorization instead.
import { id, isHexString, toBigInt, zeroPadValue, type Log } from 'ethers';
import { checksummed } from './address.ts';

const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');
const TRANSFER = id('Transfer(address,address,uint256)');

/** One authorization: who signed it and its bytes32 nonce. */
export type Authorization = { authorizer: string; nonce: string };

type LogLike = Pick<Log, 'address' | 'topics' | 'data'> & { index?: number };

/**
 * The value the token moved from `check.from` to `check.to` under `auth` in these logs: the first
 * Transfer of the token after its AuthorizationUsed(auth), when it goes from the buyer to the
 * destination; 0n when the authorization was not used here or its transfer went elsewhere.
 */
export function authorizedTransfer(logs: readonly LogLike[], check: { token: string; from: string; to: string }, auth: Authorization): bigint {
  const token = checksummed(check.token);
  const ordered = [...logs].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const authorizer = zeroPadValue(checksummed(auth.authorizer), 32).toLowerCase();
  const nonce = auth.nonce.toLowerCase();
  const used = ordered.findIndex((l) => {
    const [t0, t1, t2] = l.topics.map((t) => t.toLowerCase());
    return checksummed(l.address) === token && t0 === AUTHORIZATION_USED && t1 === authorizer && t2 === nonce;
  });
  if (used < 0) return 0n;
  const transfer = ordered.slice(used + 1).find((l) => checksummed(l.address) === token && l.topics[0]?.toLowerCase() === TRANSFER);
  if (!transfer || transfer.topics.length !== 3 || !isHexString(transfer.data, 32)) return 0n;
  const [, from, to] = transfer.topics.map((t) => t.toLowerCase());
  if (from !== zeroPadValue(checksummed(check.from), 32).toLowerCase() || to !== zeroPadValue(checksummed(check.to), 32).toLowerCase()) return 0n;
  return toBigInt(transfer.data);
}
