import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Contract, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSandbox, type EvmSandbox } from './index.ts';

// Mounts handleJsonRpc the way the service's HTTP layer will, and drives it with ethers'
// JsonRpcProvider, which batches requests: a wallet pointed at the endpoint must just work.
describe('sandbox JSON-RPC over HTTP', () => {
  let sandbox: EvmSandbox;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    sandbox = await createEvmSandbox();
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
          return;
        }
        void sandbox.handleJsonRpc(body).then((answer) => {
          if (answer === undefined) {
            response.writeHead(204).end();
            return;
          }
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  });

  it('lets a wallet on a batching JsonRpcProvider send a token transfer', async () => {
    const provider = new JsonRpcProvider(url, sandbox.chainId, { staticNetwork: true, cacheTimeout: -1 });
    const wallet = Wallet.createRandom(provider);
    const merchant = Wallet.createRandom().address;
    await sandbox.fund(wallet.address, null, parseEther('1'));
    await sandbox.fund(wallet.address, sandbox.usdcAddress, 7_000_000n);
    const usdc = new Contract(sandbox.usdcAddress, ['function transfer(address,uint256) returns (bool)'], wallet);
    const tx = await usdc.getFunction('transfer').send(merchant, 7_000_000n);
    const receipt = await provider.getTransactionReceipt(tx.hash);
    expect(receipt?.status).toBe(1);
    expect(await sandbox.balanceOf(merchant, sandbox.usdcAddress)).toBe(7_000_000n);
    // Dev methods are refused over HTTP: nobody can mint themselves sandbox balance remotely.
    await expect(provider.send('hardhat_setBalance', [wallet.address, '0x1'])).rejects.toThrow(/not available/);
    provider.destroy();
  });
});
