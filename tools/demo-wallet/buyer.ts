import { Keypair } from '@solana/web3.js';
import { JsonRpcProvider, Wallet, type HDNodeWallet } from 'ethers';
import { walletAccounts, type WalletSigners } from '../../clients/wallet/src/index.ts';
import { ethersWalletSigner } from '../../clients/wallet/src/signers/ethers-wallet-signer.ts';
import { solanaKeypairSigner } from '../../clients/wallet/src/signers/solana-signers.ts';
import { DemoWalletError } from './errors.ts';
import type { SandboxInfo } from './sandbox-api.ts';

/** A throw-away buyer: one EVM key and one Solana key, signers for the SDK executor. */
export interface Buyer {
  evmAddress: string;
  solanaAddress: string;
  signers: WalletSigners;
  /** The EVM key, connected to the sandbox chain: for what a buyer does beside paying (an earlier approval, in the fault suite). */
  evmWallet: Wallet | HDNodeWallet;
  /** CAIP-10 accounts on every sandbox chain, for the options call. */
  accounts: string[];
  close(): void;
}

/**
 * Fresh keys every run, so a run never depends on what an earlier one left behind (allowances,
 * balances). The EVM provider talks to the sandbox's JSON-RPC URL with a static network and no
 * cache: the chain id is known from `GET /sandbox`, and a cached nonce or block would make a
 * second transaction in the same run reuse the first one's nonce.
 */
export async function createBuyer(sandbox: SandboxInfo): Promise<Buyer> {
  const evmChain = sandbox.chains.find((c) => c.namespace === 'eip155');
  if (evmChain === undefined || evmChain.rpcUrl === null) throw new DemoWalletError('GET /sandbox lists no EVM chain with a JSON-RPC URL');
  const solanaChain = sandbox.chains.find((c) => c.namespace === 'solana');
  const chainId = Number(evmChain.caip2.split(':')[1]);
  const provider = new JsonRpcProvider(evmChain.rpcUrl, chainId, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = Wallet.createRandom();
  const keypair = Keypair.generate();
  const signers: WalletSigners = {
    evm: ethersWalletSigner(wallet, { chainIds: [evmChain.caip2], providerFor: () => provider }),
    solana: solanaKeypairSigner(keypair),
  };
  const solanaChainRefs = solanaChain === undefined ? [] : [solanaChain.caip2.slice('solana:'.length)];
  return {
    evmAddress: wallet.address,
    solanaAddress: keypair.publicKey.toBase58(),
    signers,
    evmWallet: wallet.connect(provider),
    accounts: await walletAccounts(signers, { solanaChainRefs }),
    close: () => provider.destroy(),
  };
}
