import { describe, expect, it } from 'vitest';
import { classifyBroadcastError, nodeMessage, type RefusalClass } from './broadcast-errors.ts';

/** Messages as each client sends them (go-ethereum core/txpool, core/error.go; bor; Erigon; Nethermind; Besu; EDR). */
const MESSAGES: Array<[string, RefusalClass]> = [
  ['already known', 'known'],
  ['ALREADY_EXISTS: already known', 'known'],
  ['INTERNAL_ERROR: existing tx with same hash', 'known'],
  ['AlreadyKnown', 'known'],
  ['Known transaction: 0x53d2112f4927d2674500b55b2ebee838873d26c178360e6448d497a811f4f4f3', 'known'],
  ['nonce too low', 'nonce-used'],
  ['nonce too low: next nonce 12, tx nonce 11', 'nonce-used'],
  ['INVALID: nonce too low', 'nonce-used'],
  ['OldNonce, Current nonce: 12, nonce of rejected tx: 11', 'nonce-used'],
  ['Transaction nonce too low. Expected nonce to be at least 1 but got 0.', 'nonce-used'],
  ['replacement transaction underpriced', 'underpriced'],
  ['transaction underpriced', 'underpriced'],
  ['transaction underpriced: gas tip cap 1000000000, minimum needed 25000000000', 'underpriced'],
  ['transaction gas price below minimum: gas tip cap 1000000000, minimum needed 25000000000', 'underpriced'],
  ['max fee per gas less than block base fee: address 0x1700454eC152753bc99a6Ffb001C47B85560e39d, maxFeePerGas: 1 baseFee: 7', 'underpriced'],
  ['FEE_TOO_LOW: fee too low', 'underpriced'],
  ['FeeTooLow, MaxFeePerGas too low. MaxFeePerGas: 1, BaseFee: 7, MaxPriorityFeePerGas:1, Block number: 5', 'underpriced'],
  ['FeeTooLowToCompete', 'underpriced'],
  ['gas price too low', 'underpriced'],
  ['Transaction maxFeePerGas (1) is too low for the next block, which has a baseFeePerGas of 241147218', 'underpriced'],
  ['Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least 1703637175 is necessary to replace the existing transaction with nonce 0.', 'underpriced'],
  ['intrinsic gas too low', 'intrinsic-gas'],
  ['intrinsic gas too low: gas 20000, minimum needed 21000', 'intrinsic-gas'],
  ['INVALID: IntrinsicGas', 'intrinsic-gas'],
  ['Transaction requires at least 21000 gas but got 20000', 'intrinsic-gas'],
  ['insufficient funds for gas * price + value', 'insufficient-funds'],
  ['insufficient funds for gas * price + value: balance 0, tx cost 31500000000000, overshot 31500000000000', 'insufficient-funds'],
  ['INVALID: insufficient funds', 'insufficient-funds'],
  ['InsufficientFunds, Account balance: 0, cumulative cost: 31500000', 'insufficient-funds'],
  ['not enough funds for gas', 'insufficient-funds'],
  ['Upfront cost exceeds account balance', 'insufficient-funds'],
  ["Sender doesn't have enough funds to send tx. The max upfront cost is: 2000032523982428000 and the sender's balance is: 1000000000000000000.", 'insufficient-funds'],
  ['txpool is full', 'other'],
  ['nonce too high', 'other'],
  ['429 Too Many Requests', 'other'],
];

describe('classifyBroadcastError: a refused broadcast, by the message the node sends', () => {
  it.each(MESSAGES)('%s → %s', (message, expected) => {
    expect(classifyBroadcastError(new Error(message)).class).toBe(expected);
  });

  it('reads the node message ethers nests under info.error, and the minimum the node names', () => {
    const wrapped = Object.assign(new Error('could not coalesce error (error={ "code": -32000 })'), {
      info: { error: { code: -32000, message: 'transaction underpriced: gas tip cap 1000000000, minimum needed 25000000000' } },
    });
    expect(nodeMessage(wrapped)).toMatch(/^transaction underpriced/);
    expect(classifyBroadcastError(wrapped)).toEqual({
      class: 'underpriced',
      message: 'transaction underpriced: gas tip cap 1000000000, minimum needed 25000000000',
      minimum: { field: 'tip', wei: 25_000_000_000n },
    });
    expect(
      classifyBroadcastError(
        new Error('Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least 1703637175 is necessary to replace the existing transaction with nonce 0.'),
      ).minimum,
    ).toEqual({ field: 'fee', wei: 1_703_637_175n });
    expect(classifyBroadcastError(new Error('intrinsic gas too low: gas 20000, minimum needed 21000')).minimum).toEqual({ field: 'gas', gas: 21_000n });
    expect(classifyBroadcastError(new Error('Transaction requires at least 21000 gas but got 20000')).minimum).toEqual({ field: 'gas', gas: 21_000n });
  });
});
