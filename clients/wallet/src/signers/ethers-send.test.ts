import { JsonRpcProvider, Transaction, Wallet, keccak256 } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { executeActions } from '../executor/execute-actions.ts';
import { startLocalServer, type LocalServer } from '../test-support/local-server.ts';
import { ethersWalletSigner } from './ethers-wallet-signer.ts';

interface RpcCall {
  id: number;
  method: string;
  params: unknown[];
}

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A tiny JSON-RPC node on 127.0.0.1 that accepts raw transactions and answers their hash. */
async function startRpcNode(chainIdHex: string) {
  const raw: string[] = [];
  const answer = (call: RpcCall): unknown => {
    const results: Record<string, () => unknown> = {
      eth_chainId: () => chainIdHex,
      eth_blockNumber: () => '0x10',
      eth_getTransactionCount: () => '0x3',
      eth_estimateGas: () => '0xb411',
      eth_gasPrice: () => '0x3b9aca00',
      eth_maxPriorityFeePerGas: () => '0x3b9aca00',
      eth_getBlockByNumber: () => ({
        number: '0x10',
        hash: `0x${'11'.repeat(32)}`,
        parentHash: `0x${'22'.repeat(32)}`,
        nonce: '0x0000000000000000',
        difficulty: '0x0',
        gasLimit: '0x1c9c380',
        gasUsed: '0x0',
        miner: '0x0000000000000000000000000000000000000000',
        extraData: '0x',
        baseFeePerGas: '0x3b9aca00',
        timestamp: '0x1',
        transactions: [],
      }),
      eth_sendRawTransaction: () => {
        raw.push(call.params[0] as string);
        return keccak256(call.params[0] as string);
      },
    };
    const result = results[call.method];
    return result ? { jsonrpc: '2.0', id: call.id, result: result() } : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: call.method } };
  };
  server = await startLocalServer((request) => ({
    status: 200,
    body: Array.isArray(request.body) ? (request.body as RpcCall[]).map(answer) : answer(request.body as RpcCall),
  }));
  return { url: server.baseUrl, raw };
}

describe('ethers wallet eth_sendTransaction', () => {
  it('signs for the action chain, broadcasts through providerFor and returns the transaction hash', async () => {
    const node = await startRpcNode('0x2105');
    const wallet = Wallet.createRandom();
    const chains: string[] = [];
    const signer = ethersWalletSigner(wallet, {
      chainIds: [8453],
      providerFor: (chainId) => (chains.push(chainId), new JsonRpcProvider(node.url, 8453, { staticNetwork: true })),
    });
    const approve = { from: wallet.address, to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', data: '0x095ea7b3', value: '0x0' };
    const [result] = await executeActions([{ type: 'walletRpc', walletRpc: { chainId: 'eip155:8453', method: 'eth_sendTransaction', params: JSON.stringify([approve]) } }], {
      evm: signer,
    });
    expect(chains).toEqual(['eip155:8453']);
    expect(node.raw).toHaveLength(1);
    const sent = Transaction.from(node.raw[0]);
    expect(result?.data[0]).toBe(sent.hash);
    expect([sent.from, sent.to, sent.data, sent.chainId, sent.nonce]).toEqual([wallet.address, approve.to, approve.data, 8453n, 3]);
  });
});
