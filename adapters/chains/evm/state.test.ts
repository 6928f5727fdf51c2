import { describe, expect, it } from 'vitest';
import { parseEvmQuoteState, parseEvmSubmission } from './state.ts';

const typedData = {
  types: { EIP712Domain: [{ name: 'name', type: 'string' }] },
  primaryType: 'TransferWithAuthorization',
  domain: { name: 'USDC', chainId: '0x1' },
  message: { value: '0x1' },
};

describe('stored EVM state is read back per flow, and anything else is refused by name', () => {
  it('reads each flow as it was stored (JSON round trip)', () => {
    for (const state of [{ flow: 'eip3009', typedData, quoteBlock: 7 }, { flow: 'permit2', typedData, approve: true }, { flow: 'transfer' }]) {
      expect(parseEvmQuoteState(JSON.parse(JSON.stringify(state)))).toEqual({ ok: true, value: state });
    }
    const sub = { flow: 'permit2', typedData, signature: '0xab', quoteBlock: 3 };
    expect(parseEvmSubmission(JSON.parse(JSON.stringify(sub)))).toEqual({ ok: true, value: sub });
  });

  it('refuses unknown flows, missing or mistyped fields, and negative blocks', () => {
    for (const bad of [
      null,
      'x',
      [],
      { flow: 'spl' },
      { flow: 'eip3009' },
      { flow: 'eip3009', typedData: { ...typedData, message: 1 } },
      { flow: 'eip3009', typedData: { ...typedData, types: { A: [{ name: 1 }] } } },
      { flow: 'permit2', typedData },
      { flow: 'eip3009', typedData, quoteBlock: -1 },
      { flow: 'eip3009', typedData: { ...typedData, domain: { chainId: true } } },
    ]) {
      expect(parseEvmQuoteState(bad)).toMatchObject({ ok: false, problem: expect.any(String) });
    }
    expect(parseEvmSubmission({ flow: 'eip3009', typedData })).toMatchObject({ ok: false });
    expect(parseEvmSubmission({ flow: 'spl', transaction: 'x', signature: 's', lastValidBlockHeight: 1 })).toMatchObject({ ok: false });
  });
});
