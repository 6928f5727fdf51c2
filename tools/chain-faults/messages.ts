// What real nodes and providers answer, word for word where code recognises words: geth's txpool
// and state-transition errors (core/txpool/errors.go, core/error.go, txpool validation's formats;
// Polygon's bor is geth with a 25 gwei minimum tip), providers' eth_getLogs range refusals
// (Alchemy -32600 with a suggested range, Infura -32602, QuickNode, reth -32602) and throttling
// bodies, Solana's RPC errors (-32002 preflight, -32005 node behind, -32016 minimum context slot).
// The sandbox node (EDR) words its own errors differently: `gethError` rewrites them, so a client
// sees what a geth-family provider would say.
import type { EvmRefusal, LogsProvider, SolanaRefusal } from './faults.ts';
import type { RpcErrorObject } from './upstream.ts';

/** geth answers every txpool and pre-check refusal with -32000. */
const GETH_CODE = -32000;

/** The facts of a transaction and its chain a refusal's message quotes. */
export interface EvmRefusalFacts {
  from: string;
  nonce: number;
  chainNonce: number;
  gasLimit: bigint;
  intrinsicGas: bigint;
  tip: bigint;
  maxFee: bigint;
  baseFee: bigint;
  cost: bigint;
  balance: bigint;
  minTip: bigint;
}

/** Polygon PoS (bor) refuses tips below 25 gwei. */
export const POLYGON_MIN_TIP_WEI = 25_000_000_000n;

export function evmRefusal(reason: EvmRefusal, f: EvmRefusalFacts): RpcErrorObject {
  const message = ((): string => {
    switch (reason) {
      case 'already-known':
        return 'already known';
      case 'nonce-too-low':
        return `nonce too low: next nonce ${f.chainNonce}, tx nonce ${f.nonce}`;
      case 'replacement-underpriced':
        return 'replacement transaction underpriced';
      case 'transaction-underpriced':
      case 'polygon-min-tip':
        return `transaction underpriced: gas tip cap ${f.tip}, minimum needed ${f.minTip}`;
      case 'fee-cap-below-base-fee':
        return `max fee per gas less than block base fee: address ${f.from}, maxFeePerGas: ${f.maxFee}, baseFee: ${f.baseFee}`;
      case 'intrinsic-gas-too-low':
        return `intrinsic gas too low: gas ${f.gasLimit}, minimum needed ${f.intrinsicGas}`;
      case 'insufficient-funds':
        return `insufficient funds for gas * price + value: balance ${f.balance}, tx cost ${f.cost}, overshot ${f.cost - f.balance}`;
    }
  })();
  return { code: GETH_CODE, message };
}

/** Whether a conditional refusal applies to this transaction (an unconditional one always does). */
export function deservesRefusal(reason: EvmRefusal, f: EvmRefusalFacts): boolean {
  if (reason === 'transaction-underpriced' || reason === 'polygon-min-tip') return f.tip < f.minTip;
  if (reason === 'fee-cap-below-base-fee') return f.maxFee < f.baseFee;
  return true;
}

export function solanaRefusal(reason: SolanaRefusal, behindSlots: number): RpcErrorObject {
  switch (reason) {
    case 'blockhash-not-found':
      return { code: -32002, message: 'Transaction simulation failed: Blockhash not found', data: { accounts: null, err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 } };
    case 'already-processed':
      return { code: -32002, message: 'Transaction simulation failed: This transaction has already been processed', data: { err: 'AlreadyProcessed', logs: [] } };
    case 'node-behind':
      return { code: -32005, message: `Node is behind by ${behindSlots} slots`, data: { numSlotsBehind: behindSlots } };
  }
}

export function minContextSlotNotReached(contextSlot: number): RpcErrorObject {
  return { code: -32016, message: 'Minimum context slot has not been reached', data: { contextSlot } };
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** A provider's refusal of an `eth_getLogs` range wider than `maxBlocks`. */
export function logsRangeRefusal(provider: LogsProvider, from: number, to: number, maxBlocks: number): RpcErrorObject {
  switch (provider) {
    case 'alchemy':
      return {
        code: -32600,
        message: `You can make eth_getLogs requests with up to a ${maxBlocks} block range. Based on your parameters, this block range should work: [${hex(from)}, ${hex(from + maxBlocks - 1)}]`,
      };
    case 'infura':
      return { code: -32602, message: `range ${to - from + 1} exceeds limit of ${maxBlocks}` };
    case 'quicknode':
      return { code: -32602, message: `eth_getLogs and eth_newFilter are limited to a ${maxBlocks} blocks range` };
    case 'reth':
      return { code: -32602, message: `query exceeds max block range ${maxBlocks}` };
  }
}

/** The body of a 429, as the chain's best-known providers send it. */
export function throttleBody(chain: 'evm' | 'solana', id: unknown): unknown {
  const message =
    chain === 'evm'
      ? 'Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput'
      : 'Too many requests for a specific RPC call, contact your app developer or support@rpcpool.com.';
  return { jsonrpc: '2.0', id: id ?? null, error: { code: 429, message } };
}

/** A gateway's 5xx: HTML from a load balancer (502, 504) or a JSON-RPC error (500, 503). */
export function httpErrorBody(status: 500 | 502 | 503 | 504): { contentType: string; body: string } {
  if (status === 502 || status === 504) {
    const title = status === 502 ? '502 Bad Gateway' : '504 Gateway Time-out';
    return { contentType: 'text/html', body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n` };
  }
  const message = status === 503 ? 'Service temporarily unavailable' : 'Internal server error';
  return { contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message } }) };
}

/** The sandbox node's (EDR's) wording of a refused broadcast, rewritten as geth words it. */
export function gethError(error: RpcErrorObject): RpcErrorObject {
  const m = error.message;
  let match: RegExpMatchArray | null;
  if (/^Known transaction/.test(m)) return { code: GETH_CODE, message: 'already known' };
  if ((match = m.match(/nonce too low\. Expected nonce to be at least (\d+) but got (\d+)/i))) {
    return { code: GETH_CODE, message: `nonce too low: next nonce ${match[1]}, tx nonce ${match[2]}` };
  }
  if (/^Replacement transaction underpriced/.test(m)) return { code: GETH_CODE, message: 'replacement transaction underpriced' };
  if ((match = m.match(/max upfront cost is: (\d+) and the sender's balance is: (\d+)/))) {
    const cost = BigInt(match[1]!);
    const balance = BigInt(match[2]!);
    return { code: GETH_CODE, message: `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}` };
  }
  if ((match = m.match(/requires at least (\d+) gas but got (\d+)/))) {
    return { code: GETH_CODE, message: `intrinsic gas too low: gas ${match[2]}, minimum needed ${match[1]}` };
  }
  return error;
}
