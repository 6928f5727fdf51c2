import { Keypair, SystemInstruction, SystemProgram, Transaction } from '@solana/web3.js';
import { Wallet, verifyTypedData } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../gateway/client.ts';
import { walletAccounts } from '../signers/accounts.ts';
import { SOLANA_DEVNET } from '../signers/chain-ids.ts';
import { ethersWalletSigner } from '../signers/ethers-wallet-signer.ts';
import { solanaKeypairSigner } from '../signers/solana-signers.ts';
import { startLocalServer, type LocalServer, type RecordedRequest } from '../test-support/local-server.ts';
import { base64ToBytes, bytesToBase64 } from '../util/base64.ts';
import { payWithOption } from './pay-with-option.ts';

const ID = 'pay_01FULLFLOW';
const evmWallet = Wallet.createRandom();
const buyerSol = Keypair.generate();
const feePayer = Keypair.generate();

/** Permit2 PermitWitnessTransferFrom: nested structs (permissions, witness), so the signer must keep every type. */
const permit = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    PermitWitnessTransferFrom: [
      { name: 'permitted', type: 'TokenPermissions' },
      { name: 'spender', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
      { name: 'witness', type: 'PaymentWitness' },
    ],
    PaymentWitness: [
      { name: 'payment', type: 'bytes32' },
      { name: 'destination', type: 'address' },
    ],
    TokenPermissions: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'PermitWitnessTransferFrom',
  domain: { name: 'Permit2', chainId: 8453, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
  message: {
    permitted: { token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '2500000' },
    spender: '0x000000000000000000000000000000000000bEEF',
    nonce: '7',
    deadline: '1900000000',
    witness: { payment: '0x' + '5a'.repeat(32), destination: '0x000000000000000000000000000000000000dEaD' },
  },
};

function solanaTx(lamports: number): string {
  const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58() });
  tx.add(SystemProgram.transfer({ fromPubkey: buyerSol.publicKey, toPubkey: feePayer.publicKey, lamports }));
  tx.partialSign(feePayer);
  return bytesToBase64(tx.serialize({ requireAllSignatures: false }));
}

/** A scripted gateway: one mixed option (EVM permit + a Solana build that expands to two transactions). */
function gateway(request: RecordedRequest) {
  if (request.url.startsWith(`/v1/gateway/payment/${ID}/options`)) {
    const body = request.body as { accounts: string[] };
    return {
      status: 200,
      body: {
        options: [
          {
            id: 'opt_mixed',
            account: body.accounts[0],
            amount: { unit: 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', value: '2500000' },
            etaS: 3,
            actions: [
              { type: 'walletRpc', data: { chain_id: 'eip155:8453', method: 'eth_signTypedData_v4', params: [evmWallet.address, JSON.stringify(permit)] } },
              { type: 'build', data: { data: 'sol-build-1' } },
            ],
          },
        ],
        collectData: null,
      },
    };
  }
  if (request.url.endsWith('/fetch')) {
    const params = (lamports: number) => [{ transaction: solanaTx(lamports) }];
    return {
      status: 200,
      body: {
        actions: [
          { type: 'walletRpc', data: { chain_id: `solana:${SOLANA_DEVNET}`, method: 'solana_signTransaction', params: params(1) } },
          { type: 'walletRpc', data: { chain_id: `solana:${SOLANA_DEVNET}`, method: 'solana_signTransaction', params: params(2) } },
        ],
      },
    };
  }
  if (request.url.includes('/confirm')) return { status: 200, body: { status: 'processing', isFinal: false, pollInMs: 1000 } };
  return { status: 200, body: { status: 'succeeded', isFinal: true, pollInMs: null, info: { txId: 'sig', optionAmount: { unit: 'x', value: '1' } } } };
}

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('whole wallet flow against a local gateway', () => {
  it('options → fetch → sign with real keys → confirm with results aligned to the expanded actions → final', async () => {
    server = await startLocalServer(gateway);
    const client = createGatewayClient({ baseUrl: server.baseUrl, apiKey: 'wk_test' }, { retry: { sleep: async () => {} } });
    const signers = { evm: ethersWalletSigner(evmWallet, { chainIds: [8453] }), solana: solanaKeypairSigner(buyerSol) };
    const accounts = await walletAccounts(signers, { solanaChainRefs: [SOLANA_DEVNET] });
    const { options } = await client.getOptions(ID, { accounts });
    const option = options[0];
    if (option === undefined) throw new Error('no option');
    const outcome = await payWithOption(client, ID, option, signers, { waitForFinal: true });

    const confirm = server.requests.find((r) => r.url.includes('/confirm'))?.body as { optionId: string; results: { type: string; data: string[] }[] };
    expect(server.requests.map((r) => r.url.split('?')[0]?.split('/').pop())).toEqual(['options', 'fetch', 'confirm', 'status']);
    expect(server.requests[1]?.body).toEqual({ optionId: 'opt_mixed', data: 'sol-build-1' });
    expect(confirm.optionId).toBe('opt_mixed');
    expect(confirm.results).toHaveLength(3);
    expect(confirm.results.every((r) => r.type === 'walletRpc' && r.data.length === 1)).toBe(true);

    const { EIP712Domain: _domain, ...types } = permit.types;
    expect(verifyTypedData(permit.domain, types, permit.message, confirm.results[0]?.data[0] ?? '')).toBe(evmWallet.address);
    for (const [index, lamports] of [
      [1, 1],
      [2, 2],
    ] as const) {
      const signed = Transaction.from(base64ToBytes(confirm.results[index]?.data[0] ?? ''));
      expect(signed.verifySignatures()).toBe(true);
      const instruction = signed.instructions[0];
      if (instruction === undefined) throw new Error('no instruction');
      const transfer = SystemInstruction.decodeTransfer(instruction);
      expect(transfer.lamports).toBe(BigInt(lamports));
    }
    expect(outcome.status).toMatchObject({ status: 'succeeded', isFinal: true });
  });
});
