import { Contract, Wallet, parseEther, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSandbox, sandboxAddresses, type EvmSandbox } from './index.ts';

describe('EVM sandbox', () => {
  let sandbox: EvmSandbox;
  beforeAll(async () => {
    sandbox = await createEvmSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('deploys at the precomputed deterministic addresses', () => {
    const expected = sandboxAddresses();
    expect(sandbox.usdcAddress).toBe(expected.usdc);
    expect(sandbox.permit2Address).toBe(expected.permit2);
    expect(sandbox.plainTokenAddress).toBe(expected.plainToken);
    expect(sandbox.directTokenAddress).toBe(expected.directToken);
    expect(sandbox.caip2).toBe('eip155:31337');
    // Pinned: configs and docs name these addresses; a change here must be deliberate.
    expect(expected).toEqual({
      deployer: '0x1700454eC152753bc99a6Ffb001C47B85560e39d',
      signatureChecker: '0x616dE8be88a5aEBE2d4aC608f204cFE48A1D376a',
      usdc: '0x72F57a162f640945AD1eD331755A759980AB7dD8',
      permit2: '0x70C0ccaa93C8A67B3E3C9DE179362D209E792dE8',
      plainToken: '0x6FDC51577542A32A66b32D5B4b1D95436a8F45E0',
      directToken: '0xBB24795602A10A8dCC92692f94A29B523062C77f',
    });
    expect(sandbox.relayer.address).toBe('0xfD7aa51dF9AF77977F29126c82fBC5D00437b37e');
    expect(sandbox.assets.map((asset) => [asset.caip19, asset.symbol, asset.decimals, asset.flows])).toEqual([
      [`eip155:31337/erc20:${expected.usdc}`, 'USDC', 6, ['eip3009', 'permit2', 'transfer']],
      [`eip155:31337/erc20:${expected.plainToken}`, 'USDT', 6, ['permit2', 'transfer']],
      [`eip155:31337/erc20:${expected.directToken}`, 'DTUSD', 6, ['transfer']],
    ]);
  });

  it('runs a USDT that behaves as Tether’s: no return values, and a non-zero allowance changes only through 0', async () => {
    const owner = Wallet.createRandom(sandbox.ethersProvider);
    await sandbox.fund(owner.address, null, parseEther('1'));
    await sandbox.fund(owner.address, sandbox.plainTokenAddress, 5_000_000n);
    const usdt = new Contract(
      sandbox.plainTokenAddress,
      ['function approve(address,uint256)', 'function transfer(address,uint256)', 'function allowance(address,address) view returns (uint256)'],
      owner,
    );
    const spender = Wallet.createRandom().address;
    // A call answering a boolean would return 32 bytes; Tether's return nothing.
    const call = await sandbox.ethersProvider.call({ from: owner.address, to: sandbox.plainTokenAddress, data: usdt.interface.encodeFunctionData('transfer', [spender, 1n]) });
    expect(call).toBe('0x');
    await (await usdt.getFunction('approve').send(spender, 100n)).wait();
    await expect(
      usdt
        .getFunction('approve')
        .send(spender, 200n, { gasLimit: 100_000n })
        .then((tx) => tx.wait()),
    ).rejects.toThrow();
    expect(await usdt.getFunction('allowance')(owner.address, spender)).toBe(100n);
    await (await usdt.getFunction('approve').send(spender, 0n)).wait();
    await (await usdt.getFunction('approve').send(spender, 200n)).wait();
    expect(await usdt.getFunction('allowance')(owner.address, spender)).toBe(200n);
    expect(sandbox.assets.find((a) => a.address === sandbox.plainTokenAddress)?.approveFromZero).toBe(true);
  });

  it('runs real FiatToken V2.2 as USDC and a token without EIP-3009', async () => {
    const abi = [
      'function name() view returns (string)',
      'function version() view returns (string)',
      'function decimals() view returns (uint8)',
      'function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)',
    ];
    const usdc = new Contract(sandbox.usdcAddress, abi, sandbox.ethersProvider);
    expect(await usdc.getFunction('name')()).toBe('USD Coin');
    expect(await usdc.getFunction('version')()).toBe('2');
    expect(await usdc.getFunction('decimals')()).toBe(6n);
    const plain = new Contract(sandbox.plainTokenAddress, abi, sandbox.ethersProvider);
    await expect(plain.getFunction('TRANSFER_WITH_AUTHORIZATION_TYPEHASH')()).rejects.toThrow();
    expect(await sandbox.ethersProvider.getCode(sandbox.permit2Address)).not.toBe('0x');
  });

  it('funds native coin and tokens by adding to the balance', async () => {
    const who = Wallet.createRandom().address;
    await sandbox.fund(who, null, 5n);
    await sandbox.fund(who, null, 7n);
    await sandbox.fund(who, sandbox.usdcAddress, 1_000_000n);
    await Promise.all([sandbox.fund(who, sandbox.plainTokenAddress, 2n), sandbox.fund(who, sandbox.plainTokenAddress, 3n)]);
    expect(await sandbox.balanceOf(who, null)).toBe(12n);
    expect(await sandbox.balanceOf(who, sandbox.usdcAddress)).toBe(1_000_000n);
    expect(await sandbox.balanceOf(who, sandbox.plainTokenAddress)).toBe(5n);
    expect(await sandbox.balanceOf(sandbox.relayer.address, null)).toBeGreaterThan(parseEther('1000'));
  });

  it('answers single and batch JSON-RPC and refuses dev methods by default', async () => {
    expect(await sandbox.handleJsonRpc({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] })).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' });
    const batch = await sandbox.handleJsonRpc([
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 'b', method: 'hardhat_setBalance', params: [sandbox.relayer.address, '0x0'] },
      { jsonrpc: '2.0', method: 'eth_blockNumber' },
      { jsonrpc: '2.0', id: 'c', method: 'no_such_method', params: [] },
      42,
    ]);
    expect(batch).toMatchObject([
      { id: 'a', result: '0x7a69' },
      { id: 'b', error: { code: -32601 } },
      { id: 'c', error: { code: expect.any(Number) } },
      { id: null, error: { code: -32600 } },
    ]);
    expect(await sandbox.handleJsonRpc([])).toMatchObject({ error: { code: -32600 } });
    expect(await sandbox.handleJsonRpc([{ jsonrpc: '2.0', method: 'eth_chainId' }])).toBeUndefined();
    expect(await sandbox.balanceOf(sandbox.relayer.address, null)).toBeGreaterThan(0n);
  });

  it('accepts a raw transaction a wallet broadcasts over the endpoint', async () => {
    const buyer = Wallet.createRandom();
    await sandbox.fund(buyer.address, null, parseEther('1'));
    const signed = await buyer.signTransaction({
      to: sandbox.relayer.address,
      value: 1n,
      nonce: 0,
      gasLimit: 21_000n,
      chainId: 31337n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1n,
      type: 2,
    });
    const answer = (await sandbox.handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [signed] })) as { result: string };
    const receipt = await sandbox.ethersProvider.getTransactionReceipt(answer.result);
    expect(receipt?.status).toBe(1);
  });

  it('with interval mining, mints sent together land in the same blocks (one faucet call a block made bench preparation take minutes), through a base-fee spike', async () => {
    const mining = await createEvmSandbox({ blockTimeMs: 500 });
    try {
      const who = Array.from({ length: 8 }, () => Wallet.createRandom().address);
      const before = await mining.ethersProvider.getBlockNumber();
      await Promise.all(who.map((a) => mining.fund(a, mining.usdcAddress, 3n)));
      const blocks = (await mining.ethersProvider.getBlockNumber()) - before;
      for (const a of who) expect(await mining.balanceOf(a, mining.usdcAddress)).toBe(3n);
      // Serialized waits would take a block each (8); sent together they fit in one or two.
      expect(blocks).toBeLessThanOrEqual(3);
      // Priced from the block before a spike, a mint would sit unmined (and the next one, given
      // its nonce by the node's pending count, would replace it): the chain fault suite saw 500s.
      await mining.provider.request({ method: 'hardhat_setNextBlockBaseFeePerGas', params: [toQuantity(60n * 10n ** 9n)] });
      await Promise.all(who.map((a) => mining.fund(a, mining.usdcAddress, 4n)));
      for (const a of who) expect(await mining.balanceOf(a, mining.usdcAddress)).toBe(7n);
    } finally {
      await mining.close();
    }
  });

  it('gives each sandbox its own chain, and refuses calls once closed', async () => {
    const other = await createEvmSandbox();
    const who = Wallet.createRandom().address;
    await other.fund(who, other.usdcAddress, 9n);
    expect(other.usdcAddress).toBe(sandbox.usdcAddress);
    expect(await sandbox.balanceOf(who, sandbox.usdcAddress)).toBe(0n);
    await other.close();
    await expect(other.balanceOf(who, null)).rejects.toThrow();
    await expect(other.handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).rejects.toThrow(/closed/);
  });
});
