import { Keypair, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import { Wallet, verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../util/base64.ts';
import { walletAccounts } from './accounts.ts';
import { eip1193Signer, type Eip1193Provider } from './eip1193-signer.ts';
import { ethersWalletSigner, toEthersRequest } from './ethers-wallet-signer.ts';
import { SOLANA_DEVNET, SOLANA_MAINNET } from './chain-ids.ts';
import { solanaKeypairSigner, solanaWalletSigner, type SolanaWalletLike } from './solana-signers.ts';

const wallet = Wallet.createRandom();

describe('ethers wallet signer', () => {
  const signer = ethersWalletSigner(wallet, { chainIds: [1, 'eip155:8453', '0x89'] });

  it('advertises one CAIP-10 account per chain', async () => {
    expect(await signer.accounts()).toEqual([1, 8453, 137].map((id) => `eip155:${id}:${wallet.address}`));
  });

  it('personal_sign signs hex as bytes and text as UTF-8', async () => {
    expect(verifyMessage(new TextEncoder().encode('hi'), await signer.personalSign(wallet.address, '0x6869'))).toBe(wallet.address);
    expect(verifyMessage('hello', await signer.personalSign(wallet.address.toLowerCase(), 'hello'))).toBe(wallet.address);
  });

  it('refuses to sign for another address, and to send without a provider', async () => {
    await expect(signer.personalSign('0x000000000000000000000000000000000000dEaD', 'x')).rejects.toThrow('not 0x');
    await expect(signer.sendTransaction('eip155:1', { to: wallet.address })).rejects.toThrow('providerFor');
  });

  it('translates a JSON-RPC transaction to ethers fields and pins the action chain', () => {
    expect(toEthersRequest('eip155:8453', { from: wallet.address, to: '0x01', data: '0xab', value: '0x10', gas: '0x5208', nonce: '0x2' })).toEqual({
      chainId: 8453n,
      to: '0x01',
      data: '0xab',
      value: 16n,
      gasLimit: 21000n,
      nonce: 2,
    });
    expect(() => toEthersRequest('eip155:8453', { chainId: '0x1' })).toThrow('does not match');
  });
});

describe('EIP-1193 signer', () => {
  function fakeProvider(chainId: string) {
    const calls: { method: string; params?: unknown[] }[] = [];
    const provider: Eip1193Provider = {
      async request(args) {
        calls.push(args);
        if (args.method === 'eth_accounts') return ['0xAbC0000000000000000000000000000000000001'];
        if (args.method === 'eth_chainId') return chainId;
        if (args.method === 'wallet_switchEthereumChain') return null;
        return `result:${args.method}`;
      },
    };
    return { provider, calls };
  }

  it('forwards signing requests with the standard parameter order', async () => {
    const { provider, calls } = fakeProvider('0x1');
    const signer = eip1193Signer(provider);
    expect(await signer.accounts()).toEqual(['eip155:1:0xAbC0000000000000000000000000000000000001']);
    await signer.signTypedData('0xa', '{"x":1}');
    await signer.personalSign('0xa', '0x6869');
    expect(calls.slice(2)).toEqual([
      { method: 'eth_signTypedData_v4', params: ['0xa', '{"x":1}'] },
      { method: 'personal_sign', params: ['0x6869', '0xa'] },
    ]);
  });

  it('switches chain before sending when the provider is on another chain', async () => {
    const { provider, calls } = fakeProvider('0x1');
    expect(await eip1193Signer(provider).sendTransaction('eip155:8453', { to: '0x01' })).toBe('result:eth_sendTransaction');
    expect(calls.map((c) => c.method)).toEqual(['eth_chainId', 'wallet_switchEthereumChain', 'eth_sendTransaction']);
    expect(calls[1]?.params).toEqual([{ chainId: '0x2105' }]);
  });
});

describe('EIP-1193 signer against a wallet that checks the active chain, as MetaMask does', () => {
  /** A wallet that knows some chains, refuses typed data for another chain than the active one, and fails unknown switches as told. */
  function strictWallet(active: number, known: number[], unknownSwitch: { code: number; message: string }) {
    const state = { active, known: new Set(known), calls: [] as string[] };
    const provider: Eip1193Provider = {
      async request({ method, params }) {
        state.calls.push(method);
        const hexArg = () => Number(BigInt((params?.[0] as { chainId: string }).chainId));
        switch (method) {
          case 'eth_chainId':
            return `0x${state.active.toString(16)}`;
          case 'wallet_switchEthereumChain': {
            const wanted = hexArg();
            if (!state.known.has(wanted)) throw Object.assign(new Error(unknownSwitch.message), { code: unknownSwitch.code });
            state.active = wanted;
            return null;
          }
          case 'wallet_addEthereumChain':
            state.known.add(hexArg());
            return null;
          case 'eth_signTypedData_v4': {
            const domainChain = Number((JSON.parse(params?.[1] as string) as { domain: { chainId: number } }).domain.chainId);
            if (domainChain !== state.active) throw Object.assign(new Error(`Provided chainId "${domainChain}" must match the active chainId "${state.active}"`), { code: -32603 });
            return '0xsigned';
          }
          default:
            throw new Error(`unexpected ${method}`);
        }
      },
    };
    return { provider, state };
  }
  const typedData = (chainId: number | string) => JSON.stringify({ domain: { name: 'USD Coin', chainId }, types: {}, primaryType: 'X', message: {} });
  const base = { chainName: 'Base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: ['https://mainnet.base.org'] };

  it('switches to the typed data chain before asking for the signature', async () => {
    const { provider, state } = strictWallet(1, [1, 8453], { code: 4902, message: 'Unrecognized chain ID' });
    expect(await eip1193Signer(provider).signTypedData('0xa', typedData(8453))).toBe('0xsigned');
    expect(state.calls).toEqual(['eth_chainId', 'wallet_switchEthereumChain', 'eth_signTypedData_v4']);
    expect(state.active).toBe(8453);
  });

  it('adds a chain the wallet does not know, whatever code its refused switch carries, then switches and signs', async () => {
    for (const refusal of [
      { code: 4902, message: 'Unrecognized chain ID' },
      { code: -32603, message: 'Unrecognized chain ID "0x2105". Try adding the chain using wallet_addEthereumChain first.' },
    ]) {
      const { provider, state } = strictWallet(1, [1], refusal);
      const signer = eip1193Signer(provider, { addableChains: { '8453': base } });
      expect(await signer.signTypedData('0xa', typedData('0x2105'))).toBe('0xsigned');
      expect(state.calls).toEqual(['eth_chainId', 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'wallet_switchEthereumChain', 'eth_signTypedData_v4']);
    }
  });

  it('takes the buyer rejecting the switch as final, and a chain it cannot describe as refused', async () => {
    const rejecting = strictWallet(1, [1], { code: 4001, message: 'User rejected the request.' });
    await expect(eip1193Signer(rejecting.provider, { addableChains: { '8453': base } }).signTypedData('0xa', typedData(8453))).rejects.toMatchObject({ code: 4001 });
    expect(rejecting.state.calls).not.toContain('wallet_addEthereumChain');
    const unknown = strictWallet(1, [1], { code: 4902, message: 'Unrecognized chain ID' });
    await expect(eip1193Signer(unknown.provider).sendTransaction('eip155:8453', { to: '0x01' })).rejects.toMatchObject({ code: 4902 });
    expect(unknown.state.calls).not.toContain('eth_sendTransaction');
  });
});

describe('Solana signers and advertised accounts', () => {
  function unsignedTransfer(feePayer: Keypair, buyer: Keypair): string {
    const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58() });
    tx.add(SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: feePayer.publicKey, lamports: 5 }));
    tx.partialSign(feePayer);
    return bytesToBase64(tx.serialize({ requireAllSignatures: false }));
  }

  it('signs through a wallet exposing signTransaction and returns the whole transaction', async () => {
    const feePayer = Keypair.generate();
    const buyer = Keypair.generate();
    const external: SolanaWalletLike = {
      publicKey: buyer.publicKey,
      async signTransaction<T extends Transaction | VersionedTransaction>(transaction: T): Promise<T> {
        if (transaction instanceof Transaction) transaction.partialSign(buyer);
        else transaction.sign([buyer]);
        return transaction;
      },
    };
    const signed = Transaction.from(base64ToBytes(await solanaWalletSigner(external).signTransaction(unsignedTransfer(feePayer, buyer))));
    expect(signed.verifySignatures()).toBe(true);
  });

  it('advertises Solana accounts only when Solana keys exist', async () => {
    const buyer = Keypair.generate();
    const evm = ethersWalletSigner(wallet, { chainIds: [8453] });
    const disconnected = solanaWalletSigner({ publicKey: null, signTransaction: async (t) => t });
    const refs = [SOLANA_MAINNET, SOLANA_DEVNET];
    expect(await walletAccounts({ evm }, { solanaChainRefs: refs })).toEqual([`eip155:8453:${wallet.address}`]);
    expect(await walletAccounts({ evm, solana: disconnected }, { solanaChainRefs: refs })).toEqual([`eip155:8453:${wallet.address}`]);
    expect(await walletAccounts({ evm, solana: solanaKeypairSigner(buyer) }, { solanaChainRefs: refs })).toEqual([
      `eip155:8453:${wallet.address}`,
      `solana:${SOLANA_MAINNET}:${buyer.publicKey.toBase58()}`,
      `solana:${SOLANA_DEVNET}:${buyer.publicKey.toBase58()}`,
    ]);
  });
});
