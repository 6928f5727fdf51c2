import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Contract, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, createSandboxRouter, type SandboxChains } from '../server/composition/sandbox/index.ts';

// The sandbox router on a bare Express app with real chains, driven over real HTTP.
describe('sandbox HTTP surface', () => {
  let chains: SandboxChains;
  let server: Server;
  let base: string;
  let rpcUrl: string;
  let usdc: string;
  let usdt: string;
  let dtusd: string;
  let splUsdc: string;

  const post = async (path: string, body: unknown, contentType = 'application/json') => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: await res.json() };
  };
  const balance = async (account: string, asset?: string): Promise<bigint> => {
    const q = new URLSearchParams({ account, ...(asset ? { asset } : {}) });
    const res = await get(`/sandbox/balance?${q}`);
    expect(res.status).toBe(200);
    return BigInt(res.body.value);
  };
  const faucet = (account: string, asset: string | null, value: unknown) => post('/sandbox/faucet', { account, asset, value });

  beforeAll(async () => {
    chains = await createSandboxChains();
    const app = express();
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app.use(createSandboxRouter(chains, { publicBaseUrl: `${base}/` }));
    rpcUrl = `${base}/sandbox/rpc/eip155:31337`;
    usdc = chains.evm.assets.find((a) => a.symbol === 'USDC')!.caip19;
    usdt = chains.evm.assets.find((a) => a.symbol === 'USDT')!.caip19;
    dtusd = chains.evm.assets.find((a) => a.symbol === 'DTUSD')!.caip19;
    splUsdc = chains.solana.assets[0]!.caip19;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await chains.close();
  });

  it('lists the chains (with the EVM JSON-RPC URL) and the assets with their flows', async () => {
    const res = await get('/sandbox');
    expect(res.status).toBe(200);
    expect(res.body.chains).toEqual([
      expect.objectContaining({
        caip2: 'eip155:31337',
        namespace: 'eip155',
        name: 'Sandbox EVM',
        rpcUrl,
        nativeCoin: { id: 'eip155:31337/slip44:60', symbol: 'ETH', decimals: 18 },
      }),
      expect.objectContaining({
        caip2: 'solana:sandbox',
        namespace: 'solana',
        name: 'Sandbox Solana',
        rpcUrl: null,
        nativeCoin: { id: 'solana:sandbox/slip44:501', symbol: 'SOL', decimals: 9 },
      }),
    ]);
    expect(res.body.assets).toEqual([
      { caip19: usdc, chain: 'eip155:31337', symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009', 'permit2', 'transfer'] },
      { caip19: usdt, chain: 'eip155:31337', symbol: 'USDT', name: 'Sandbox Tether USD', decimals: 6, flows: ['permit2', 'transfer'] },
      { caip19: dtusd, chain: 'eip155:31337', symbol: 'DTUSD', name: 'Sandbox Direct-Transfer USD', decimals: 6, flows: ['transfer'] },
      { caip19: splUsdc, chain: 'solana:sandbox', symbol: 'USDC', name: 'USD Coin (sandbox)', decimals: 6, flows: ['spl'] },
    ]);
  });

  it('describes the same assets for the registry, pegged to USD', () => {
    const configs = chains.assetConfigs();
    expect(configs.map((c) => [c.id, c.networkName, c.pegCurrency])).toEqual([
      [usdc, 'Sandbox EVM', 'USD'],
      [usdt, 'Sandbox EVM', 'USD'],
      [dtusd, 'Sandbox EVM', 'USD'],
      [splUsdc, 'Sandbox Solana', 'USD'],
    ]);
  });

  it('funds an EVM account with the native coin and each token, and reads the balances back', async () => {
    const address = Wallet.createRandom().address;
    const account = `eip155:31337:${address}`;
    expect(await balance(account)).toBe(0n);
    const eth = await faucet(account, null, '1500000000000000000');
    expect(eth).toEqual({ status: 200, body: { account, asset: null, value: '1500000000000000000', balance: '1500000000000000000' } });
    await faucet(account, null, '500000000000000000');
    expect(await balance(account)).toBe(parseEther('2'));
    expect(await balance(account, 'eip155:31337/slip44:60')).toBe(parseEther('2'));
    for (const [asset, value] of [
      [usdc, 25_000_000n],
      [usdt, 7_000_000n],
      [dtusd, 3_000_000n],
    ] as const) {
      const res = await faucet(account, asset, value.toString());
      expect(res.status).toBe(200);
      expect(res.body.balance).toBe(value.toString());
      expect(await balance(account, asset)).toBe(value);
      expect(await chains.evm.balanceOf(address, asset.split(':').pop()!)).toBe(value);
    }
    // A lower-case address is the same account; the answer names it checksummed.
    const lower = await faucet(`eip155:31337:${address.toLowerCase()}`, usdc, '1');
    expect(lower.body.account).toBe(account);
    expect(await balance(account, usdc)).toBe(25_000_001n);
  });

  it('counts every one of concurrent native faucet calls', async () => {
    const account = `eip155:31337:${Wallet.createRandom().address}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => faucet(account, null, '1000')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balance(account)).toBe(5000n);
  });

  it('funds a Solana account with SOL and the SPL token', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    const account = `solana:sandbox:${owner}`;
    expect(await balance(account, splUsdc)).toBe(0n);
    const sol = await faucet(account, null, String(2 * LAMPORTS_PER_SOL));
    expect(sol).toEqual({ status: 200, body: { account, asset: null, value: '2000000000', balance: '2000000000' } });
    const spl = await faucet(account, splUsdc, '12345678');
    expect(spl.status).toBe(200);
    expect(await balance(account)).toBe(2_000_000_000n);
    expect(await balance(account, splUsdc)).toBe(12_345_678n);
    expect(chains.solana.balance(owner, chains.solana.mint.toBase58())).toBe(12_345_678n);
  });

  it('lets a funded wallet broadcast a signed ERC-20 transfer through the listed JSON-RPC URL', async () => {
    const provider = new JsonRpcProvider(rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const wallet = Wallet.createRandom(provider);
      const merchant = Wallet.createRandom().address;
      const buyer = `eip155:31337:${wallet.address}`;
      expect((await faucet(buyer, null, parseEther('1').toString())).status).toBe(200);
      expect((await faucet(buyer, usdc, '9000000')).status).toBe(200);
      const token = new Contract(usdc.split(':').pop()!, ['function transfer(address,uint256) returns (bool)'], wallet);
      const tx = await token.getFunction('transfer').send(merchant, 4_000_000n);
      const receipt = await tx.wait();
      expect(receipt?.status).toBe(1);
      expect(await balance(buyer, usdc)).toBe(5_000_000n);
      expect(await balance(`eip155:31337:${merchant}`, usdc)).toBe(4_000_000n);
      expect(await balance(buyer)).toBeLessThan(parseEther('1'));
      await expect(provider.send('hardhat_setBalance', [wallet.address, '0xffff'])).rejects.toThrow(/not available/);
    } finally {
      provider.destroy();
    }
  });

  it('refuses dev methods on the JSON-RPC endpoint, single and batched, and answers other chains 404', async () => {
    const address = Wallet.createRandom().address;
    const single = await post('/sandbox/rpc/eip155:31337', { jsonrpc: '2.0', id: 1, method: 'hardhat_setBalance', params: [address, '0x1'] });
    expect(single.status).toBe(200);
    expect(single.body.error).toMatchObject({ code: -32601 });
    const batch = await post('/sandbox/rpc/eip155:31337', [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'evm_mine', params: [] },
    ]);
    expect(batch.body).toEqual([{ jsonrpc: '2.0', id: 1, result: '0x7a69' }, expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32601 }) })]);
    expect(await balance(`eip155:31337:${address}`)).toBe(0n);
    const parse = await post('/sandbox/rpc/eip155:31337', '{"jsonrpc":');
    expect(parse.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    const other = await post('/sandbox/rpc/eip155:1', { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
    expect(other).toEqual({ status: 404, body: { code: 'not_found', message: expect.any(String) } });
    expect(await get('/sandbox/rpc/eip155:31337')).toEqual({ status: 405, body: { code: 'method_not_allowed', message: expect.any(String) } });
    expect((await post('/sandbox/balance', {})).status).toBe(405);
  });

  describe('answers client mistakes 400 params_validation with issues', () => {
    const evmAccount = 'eip155:31337:0x52908400098527886E0F7030069857D2E4169EE7';
    const badChecksum = 'eip155:31337:0x52908400098527886e0F7030069857D2E4169EE7';
    const cases: Array<[string, () => { account: unknown; asset: unknown; value: unknown }, string, RegExp]> = [
      ['unknown chain', () => ({ account: 'eip155:1:0x52908400098527886E0F7030069857D2E4169EE7', asset: null, value: '1' }), 'account', /not a sandbox chain/],
      [
        'unknown asset',
        () => ({ account: evmAccount, asset: 'eip155:31337/erc20:0x0000000000000000000000000000000000000001', value: '1' }),
        'asset',
        /not an asset of the sandbox/,
      ],
      ['asset of another chain', () => ({ account: evmAccount, asset: splUsdc, value: '1' }), 'asset', /not on the account's chain/],
      ['malformed account', () => ({ account: 'not-an-account', asset: null, value: '1' }), 'account', /CAIP-10/],
      ['missing account', () => ({ account: undefined, asset: null, value: '1' }), 'account', /required/],
      ['bad Solana address', () => ({ account: 'solana:sandbox:0x52908400098527886E0F7030069857D2E4169EE7', asset: null, value: '1' }), 'account', /base58/],
      ['EVM address with a bad checksum', () => ({ account: badChecksum, asset: null, value: '1' }), 'account', /checksum/],
      ['negative value', () => ({ account: evmAccount, asset: null, value: '-1' }), 'value', /non-negative integer/],
      ['fractional value', () => ({ account: evmAccount, asset: usdc, value: '1.5' }), 'value', /non-negative integer/],
      ['numeric value', () => ({ account: evmAccount, asset: usdc, value: 1 }), 'value', /as a string/],
      ['value over the cap', () => ({ account: evmAccount, asset: usdc, value: (10n ** 30n + 1n).toString() }), 'value', /10\^30/],
    ];
    it.each(cases)('%s', async (_name, body, field, message) => {
      const res = await post('/sandbox/faucet', body());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String), code: 'params_validation', issues: [{ field, message: expect.stringMatching(message) }] });
    });

    it('reports every problem at once, and refuses a non-object or malformed body', async () => {
      const both = await post('/sandbox/faucet', { account: badChecksum, asset: 'nope', value: '1.0' });
      expect(both.body.issues.map((i: { field: string }) => i.field)).toEqual(['account', 'asset', 'value']);
      expect((await post('/sandbox/faucet', [1])).body).toMatchObject({ code: 'params_validation', issues: [{ field: 'body' }] });
      expect(await post('/sandbox/faucet', '{"account":')).toEqual({ status: 400, body: { code: 'invalid_params', message: expect.any(String) } });
    });

    it('on balance queries too', async () => {
      const res = await get(`/sandbox/balance?account=${encodeURIComponent(badChecksum)}&asset=${encodeURIComponent('eip155:31337/erc20:0xdead')}`);
      expect(res.status).toBe(400);
      expect(res.body.issues.map((i: { field: string }) => i.field)).toEqual(['query.account', 'query.asset']);
      expect((await get('/sandbox/balance')).body.issues).toEqual([{ field: 'query.account', message: expect.stringMatching(/required/) }]);
    });

    it('when a token refuses the recipient (FiatToken blacklists its own address)', async () => {
      const self = `eip155:31337:${chains.evm.usdcAddress}`;
      const res = await faucet(self, usdc, '5');
      expect(res).toEqual({
        status: 400,
        body: { message: expect.any(String), code: 'params_validation', issues: [{ field: 'account', message: expect.stringMatching(/refuses/) }] },
      });
      expect((await faucet(`eip155:31337:${Wallet.createRandom().address}`, usdc, '5')).status).toBe(200);
    });

    it('when a Solana value would overflow what the chain holds', async () => {
      const account = `solana:sandbox:${Keypair.generate().publicKey.toBase58()}`;
      const spl = await faucet(account, splUsdc, (2n ** 64n).toString());
      expect(spl.status).toBe(400);
      expect(spl.body.issues).toEqual([{ field: 'value', message: expect.stringMatching(/u64/) }]);
      expect((await faucet(account, null, (2n ** 60n).toString())).status).toBe(400);
      expect(await balance(account, splUsdc)).toBe(0n);
    });
  });
});
