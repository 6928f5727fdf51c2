import { describe, expect, it } from 'vitest';
import type { PaymentAction, WalletRpcAction } from '../gateway/actions.ts';
import type { EvmSigner, SolanaSigner } from '../signers/types.ts';
import { ActionExecutionError } from './errors.ts';
import { executeActions } from './execute-actions.ts';

const ADDRESS = '0x00000000000000000000000000000000000000aa';
const rpc = (chainId: string, method: string, params: unknown[]): WalletRpcAction => ({
  type: 'walletRpc',
  walletRpc: { chainId, method, params: JSON.stringify(params) },
});
const typedDataAction = rpc('eip155:8453', 'eth_signTypedData_v4', [ADDRESS, '{"primaryType":"X"}']);
const approveAction = rpc('eip155:8453', 'eth_sendTransaction', [{ from: ADDRESS, to: '0x01', data: '0x095ea7b3' }]);
const personalAction = rpc('eip155:1', 'personal_sign', ['0x68656c6c6f', ADDRESS]);
const solanaAction = (tx: string) => rpc('solana:devnet', 'solana_signTransaction', [{ transaction: tx }]);

/** Fake signers that log every call, so order and routing are observable. */
function recordingSigners() {
  const log: string[] = [];
  const evm: EvmSigner = {
    accounts: async () => [`eip155:8453:${ADDRESS}`],
    signTypedData: async (address, json) => (log.push(`evm.typed ${address} ${json}`), '0xtyped'),
    personalSign: async (address, message) => (log.push(`evm.personal ${address} ${message}`), '0xpersonal'),
    sendTransaction: async (chainId, tx) => (log.push(`evm.send ${chainId} ${tx.data}`), '0xhash'),
  };
  const solana: SolanaSigner = {
    accounts: async () => [],
    signTransaction: async (tx, chainId) => (log.push(`sol.sign ${chainId} ${tx}`), `signed-${tx}`),
  };
  return { log, evm, solana };
}

async function executionError(promise: Promise<unknown>): Promise<ActionExecutionError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ActionExecutionError);
  return error as ActionExecutionError;
}

describe('executeActions', () => {
  it('runs a mixed option in order, routes by namespace and aligns results (build expanded in place)', async () => {
    const { log, evm, solana } = recordingSigners();
    const actions: PaymentAction[] = [approveAction, typedDataAction, { type: 'build', build: { data: 'b1' } }, personalAction];
    const resolveBuild = async () => [solanaAction('tx1'), solanaAction('tx2')];
    const results = await executeActions(actions, { evm, solana, resolveBuild });
    expect(log).toEqual([
      'evm.send eip155:8453 0x095ea7b3',
      `evm.typed ${ADDRESS} {"primaryType":"X"}`,
      'sol.sign solana:devnet tx1',
      'sol.sign solana:devnet tx2',
      `evm.personal ${ADDRESS} 0x68656c6c6f`,
    ]);
    expect(results).toEqual(['0xhash', '0xtyped', 'signed-tx1', 'signed-tx2', '0xpersonal'].map((v) => ({ type: 'walletRpc', data: [v] })));
  });

  it('waits for an approval to be mined before signing the permit it allows, and stops when it reverted', async () => {
    const { log, evm } = recordingSigners();
    let mine = () => {};
    const mined = new Promise<void>((resolve) => (mine = resolve));
    evm.waitForReceipt = async (chainId, hash) => {
      log.push(`evm.wait ${chainId} ${hash}`);
      await mined;
      log.push('evm.mined');
    };
    const running = executeActions([approveAction, typedDataAction], { evm });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['evm.send eip155:8453 0x095ea7b3', 'evm.wait eip155:8453 0xhash']);
    mine();
    await running;
    expect(log.slice(2)).toEqual(['evm.mined', `evm.typed ${ADDRESS} {"primaryType":"X"}`]);
    // The last action is never waited on: the service follows it.
    log.length = 0;
    await executeActions([approveAction], { evm });
    expect(log).toEqual(['evm.send eip155:8453 0x095ea7b3']);
    evm.waitForReceipt = async () => {
      throw new Error('transaction 0xhash reverted');
    };
    log.length = 0;
    const error = await executionError(executeActions([approveAction, typedDataAction], { evm }));
    expect([error.code, error.actionIndex]).toEqual(['transaction_failed', 0]);
    expect(log).toEqual(['evm.send eip155:8453 0x095ea7b3']);
  });

  it('accepts typed data given as an object and forwards it as JSON', async () => {
    const { log, evm } = recordingSigners();
    await executeActions([rpc('eip155:1', 'eth_signTypedData_v4', [ADDRESS, { primaryType: 'Y' }])], { evm });
    expect(log).toEqual([`evm.typed ${ADDRESS} {"primaryType":"Y"}`]);
  });

  it.each([
    ['an unknown EVM method', rpc('eip155:1', 'eth_sign', [ADDRESS, '0x00']), 'unknown_method'],
    ['an unknown Solana method', rpc('solana:devnet', 'solana_signMessage', [{ message: 'x' }]), 'unknown_method'],
    ['an EVM method on a Solana chain', rpc('solana:devnet', 'personal_sign', ['0x00', ADDRESS]), 'unknown_method'],
    ['solana_signAndSendTransaction', rpc('solana:devnet', 'solana_signAndSendTransaction', [{ transaction: 'AA==' }]), 'refused_method'],
    ['an unknown namespace', rpc('cosmos:cosmoshub-4', 'cosmos_signDirect', []), 'unsupported_namespace'],
    ['a chain id without reference', rpc('eip155', 'personal_sign', ['0x00', ADDRESS]), 'unsupported_namespace'],
    ['params that are not an array', { type: 'walletRpc', walletRpc: { chainId: 'eip155:1', method: 'personal_sign', params: '{"a":1}' } }, 'invalid_params'],
    ['solana params without transaction', rpc('solana:devnet', 'solana_signTransaction', [{ tx: 'AA==' }]), 'invalid_params'],
    ['a transaction that is not an object', rpc('eip155:1', 'eth_sendTransaction', ['0xdeadbeef']), 'invalid_params'],
  ] as const)('refuses %s before signing anything', async (_name, bad, code) => {
    const { log, evm, solana } = recordingSigners();
    const error = await executionError(executeActions([typedDataAction, bad], { evm, solana }));
    expect(error.code).toBe(code);
    expect(error.actionIndex).toBe(1);
    expect(log).toEqual([]);
  });

  it('raises missing_signer for each namespace when its signer is absent', async () => {
    const { evm, solana } = recordingSigners();
    expect((await executionError(executeActions([solanaAction('t')], { evm }))).code).toBe('missing_signer');
    expect((await executionError(executeActions([typedDataAction], { solana }))).code).toBe('missing_signer');
  });

  it('raises empty_result when a signer returns nothing, instead of confirming a hole', async () => {
    const { evm } = recordingSigners();
    const broken: EvmSigner = { ...evm, signTypedData: async () => '' };
    expect((await executionError(executeActions([typedDataAction], { evm: broken }))).code).toBe('empty_result');
  });

  it('refuses a build action with no resolver or that resolves to nothing', async () => {
    const { evm } = recordingSigners();
    const build: PaymentAction = { type: 'build', build: { data: 'x' } };
    expect((await executionError(executeActions([build], { evm }))).code).toBe('unresolved_build');
    expect((await executionError(executeActions([build], { evm, resolveBuild: async () => [] }))).code).toBe('unresolved_build');
  });

  it('propagates a signer failure (e.g. the buyer rejected) without further actions', async () => {
    const { log, evm } = recordingSigners();
    const rejecting: EvmSigner = { ...evm, sendTransaction: async () => Promise.reject(new Error('user rejected')) };
    await expect(executeActions([approveAction, typedDataAction], { evm: rejecting })).rejects.toThrow('user rejected');
    expect(log).toEqual([]);
  });
});
