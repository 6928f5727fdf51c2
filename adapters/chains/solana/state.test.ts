import { describe, expect, it } from 'vitest';
import { parseSplQuoteState, parseSplSubmission } from './state.ts';

describe('stored Solana state is read back, and anything else is refused by name', () => {
  const prepared = { flow: 'spl', mint: 'M', decimals: 6, destinationOwner: 'D', amount: '100' };
  it('reads a prepared and a fetched state, and a submission', () => {
    expect(parseSplQuoteState(prepared)).toEqual({ ok: true, value: prepared });
    const fetched = { ...prepared, messageBase64: 'AA==', signature: 's', lastValidBlockHeight: 9 };
    expect(parseSplQuoteState(fetched)).toEqual({ ok: true, value: fetched });
    const sub = { flow: 'spl', transaction: 'AA==', signature: 's', lastValidBlockHeight: 9 };
    expect(parseSplSubmission(sub)).toEqual({ ok: true, value: sub });
  });

  it('refuses other flows, a half-written build, a non-integer amount', () => {
    for (const bad of [{ flow: 'transfer' }, { ...prepared, messageBase64: 'AA==' }, { ...prepared, amount: '1.5' }, { ...prepared, decimals: '6' }, 7]) {
      expect(parseSplQuoteState(bad)).toMatchObject({ ok: false });
    }
    expect(parseSplSubmission({ flow: 'spl', transaction: 'AA==', signature: 's' })).toMatchObject({ ok: false });
  });
});
