import { describe, expect, it } from 'vitest';
import type { WalletRpcAction } from '../gateway/actions.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { ConfirmRequest, PaymentOption, PaymentStatusResult } from '../gateway/types.ts';
import type { EvmSigner, SolanaSigner } from '../signers/types.ts';
import { payWithOption } from './pay-with-option.ts';

const ID = 'pay_01PAYFLOW';
const sol = (tx: string): WalletRpcAction => ({
  type: 'walletRpc',
  walletRpc: { chainId: 'solana:devnet', method: 'solana_signTransaction', params: JSON.stringify([{ transaction: tx }]) },
});

function fakeClient(statuses: PaymentStatusResult[]) {
  const calls: { fetch: { optionId: string; data: string }[]; confirm: { request: ConfirmRequest; maxPollMs?: number }[] } = { fetch: [], confirm: [] };
  const client = {
    fetchAction: async (_id: string, request: { optionId: string; data: string }) => {
      calls.fetch.push(request);
      return [sol(`${request.data}-a`), sol(`${request.data}-b`)];
    },
    confirm: async (_id: string, request: ConfirmRequest, options: { maxPollMs?: number } = {}) => {
      calls.confirm.push({ request, ...options });
      return statuses.shift() as PaymentStatusResult;
    },
    waitForFinal: async () => statuses.shift() as PaymentStatusResult,
  } as unknown as GatewayClient;
  return { client, calls };
}

const solana: SolanaSigner = { accounts: async () => [], signTransaction: async (tx) => `signed:${tx}` };
const evm: EvmSigner = {
  accounts: async () => [],
  signTypedData: async () => '0xsig',
  personalSign: async () => '0xp',
  sendTransaction: async () => '0xh',
};

describe('payWithOption', () => {
  const option: PaymentOption = {
    id: 'opt_sol',
    account: 'solana:devnet:Buyer',
    amount: { unit: 'caip19/x', value: '1' },
    etaS: 1,
    actions: [
      { type: 'walletRpc', walletRpc: { chainId: 'eip155:1', method: 'eth_signTypedData_v4', params: JSON.stringify(['0x01', '{}']) } },
      { type: 'build', build: { data: 'blob' } },
    ],
  };

  it('fetches builds with the option id, executes, and confirms results aligned with the expanded actions', async () => {
    const { client, calls } = fakeClient([{ status: 'processing', isFinal: false, pollInMs: 1000 }]);
    const outcome = await payWithOption(client, ID, option, { evm, solana }, { maxPollMs: 3000 });
    expect(calls.fetch).toEqual([{ optionId: 'opt_sol', data: 'blob' }]);
    expect(outcome.actions).toHaveLength(3);
    expect(calls.confirm).toEqual([
      {
        request: {
          optionId: 'opt_sol',
          results: [
            { type: 'walletRpc', data: ['0xsig'] },
            { type: 'walletRpc', data: ['signed:blob-a'] },
            { type: 'walletRpc', data: ['signed:blob-b'] },
          ],
        },
        maxPollMs: 3000,
      },
    ]);
    expect(outcome.status.status).toBe('processing');
  });

  it('sends collectedData only when given, and waits for a final status on request', async () => {
    const { client, calls } = fakeClient([
      { status: 'processing', isFinal: false, pollInMs: 1000 },
      { status: 'succeeded', isFinal: true, pollInMs: null },
    ]);
    const collectedData = { fields: [{ id: 'fullName', value: 'Ada' }] };
    const outcome = await payWithOption(client, ID, option, { evm, solana }, { collectedData, waitForFinal: true });
    expect(calls.confirm[0]?.request.collectedData).toEqual(collectedData);
    expect(outcome.status.status).toBe('succeeded');
  });

  it('does not confirm when an action cannot be executed', async () => {
    const { client, calls } = fakeClient([]);
    await expect(payWithOption(client, ID, option, { evm })).rejects.toMatchObject({ code: 'missing_signer' });
    expect(calls.confirm).toEqual([]);
  });
});
