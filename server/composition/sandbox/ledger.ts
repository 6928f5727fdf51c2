// Funding and reading balances on the sandbox chains, for the faucet and balance endpoints.
import { unpackMint } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { isError } from 'ethers';
import { validationError } from '../../errors.ts';
import type { SandboxChains } from './chains.ts';
import type { Holding, SandboxChainKey } from './inputs.ts';

const U64_MAX = 2n ** 64n - 1n;
/** The Solana sandbox keeps lamports as a JS number, so a balance must stay an exact integer there. */
const MAX_LAMPORTS = BigInt(Number.MAX_SAFE_INTEGER);

export interface SandboxLedger {
  /** Adds `value` base units to the holding; a value the chain cannot hold is a 400, not a crash. */
  fund(holding: Holding, value: bigint): Promise<void>;
  balance(holding: Holding): Promise<bigint>;
}

/**
 * Wraps the chains' fund/balance calls for HTTP callers.
 *
 * Why a queue per chain: funding native EVM coin reads the balance and sets it (no add-balance
 * call exists), so two concurrent faucet calls for one account would lose one; serializing native
 * funding per chain makes every call count (token mints add, so they are not queued). Why the Solana checks: SPL amounts are u64 and the
 * sandbox's lamports a JS number, and going past either would fail deep inside the chain.
 */
export function createSandboxLedger(chains: SandboxChains): SandboxLedger {
  const queues: Record<SandboxChainKey, Promise<unknown>> = { evm: Promise.resolve(), solana: Promise.resolve() };
  const serialized = <T>(chain: SandboxChainKey, work: () => Promise<T>): Promise<T> => {
    const run = queues[chain].then(work, work);
    queues[chain] = run.catch(() => undefined);
    return run;
  };

  const balance = async (holding: Holding): Promise<bigint> =>
    holding.chain === 'evm' ? chains.evm.balanceOf(holding.address, holding.token) : chains.solana.balance(holding.address, holding.token);

  const checkSolanaRoom = async (holding: Holding, value: bigint): Promise<void> => {
    if (holding.token === null) {
      const current = chains.solana.balance(holding.address, null);
      if (current + value > MAX_LAMPORTS) {
        throw validationError([{ field: 'value', message: `would take the account past ${MAX_LAMPORTS} lamports, the sandbox's limit` }]);
      }
      return;
    }
    const mint = new PublicKey(holding.token);
    const info = await chains.solana.connection.getAccountInfo(mint);
    const supply = info ? unpackMint(mint, info).supply : 0n;
    if (supply + value > U64_MAX) {
      throw validationError([{ field: 'value', message: 'would take the token supply past 2^64 - 1 base units (SPL amounts are u64)' }]);
    }
  };

  const fundEvm = async (holding: Holding, value: bigint): Promise<void> => {
    try {
      await chains.evm.fund(holding.address, holding.token, value);
    } catch (error) {
      // A token may refuse a recipient: FiatToken blacklists its own address, for one.
      if (holding.token !== null && isError(error, 'CALL_EXCEPTION')) {
        throw validationError([{ field: 'account', message: `the token refuses to mint to this account (${error.reason ?? 'reverted'})` }]);
      }
      throw error;
    }
  };

  return {
    balance,
    fund(holding, value) {
      if (value === 0n) return Promise.resolve();
      // An EVM token is minted, which adds: concurrent mints all count (the sandbox orders the deployer's nonces).
      if (holding.chain === 'evm' && holding.token !== null) return fundEvm(holding, value);
      return serialized(holding.chain, async () => {
        if (holding.chain === 'evm') {
          await fundEvm(holding, value);
          return;
        }
        await checkSolanaRoom(holding, value);
        chains.solana.fund(holding.address, holding.token, value);
      });
    },
  };
}
