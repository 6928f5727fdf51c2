import type { PublicKey } from '@solana/web3.js';
import { MINT_SIZE, MintLayout, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { SolanaRpc } from './rpc.ts';

/**
 * Why a mint's owner program is checked: a Token-2022 mint needs its own program id in every
 * instruction and ATA derivation, and may carry transfer fees or hooks that change what arrives;
 * built with the classic program id its transfer fails (or worse, a fee silently shortens the
 * amount). It is refused with a reason rather than mis-built; supporting it is a separate decision.
 */
export async function mintProblem(rpc: SolanaRpc, mint: PublicKey, decimals?: number): Promise<string | null> {
  const info = await rpc.getAccountInfo(mint, 'confirmed');
  if (!info) return `the mint ${mint.toBase58()} does not exist on this cluster`;
  if (info.owner.equals(TOKEN_2022_PROGRAM_ID)) return `the mint ${mint.toBase58()} is a Token-2022 mint, which this service does not pay in`;
  if (!info.owner.equals(TOKEN_PROGRAM_ID) || info.data.length !== MINT_SIZE) return `the account ${mint.toBase58()} is not an SPL token mint`;
  // The configured decimals price every amount and go into transferChecked, which the chain refuses when they differ.
  const onChain = MintLayout.decode(info.data).decimals;
  if (decimals !== undefined && onChain !== decimals)
    return `the mint ${mint.toBase58()} has ${onChain} decimals, configured ${decimals}: every amount would be off by 10^${Math.abs(onChain - decimals)}`;
  return null;
}

/**
 * Why the destination's token account must already exist: opening it costs 2,039,280 lamports of
 * rent, which the account's owner (the merchant, whose settlement address a partner can change at
 * will) can reclaim by closing it. If the fee payer opened it, pointing settlements at a fresh
 * address before each 1-unit payment would drain the fee payer for every partner. So no option is
 * offered to a destination without one; the merchant opens it once (any wallet does on first receipt).
 */
export async function destinationProblem(rpc: SolanaRpc, mint: PublicKey, owner: PublicKey): Promise<string | null> {
  const ata = getAssociatedTokenAddressSync(mint, owner, true, TOKEN_PROGRAM_ID);
  const info = await rpc.getAccountInfo(ata, 'confirmed');
  if (info && info.owner.equals(TOKEN_PROGRAM_ID)) return null;
  return `the merchant's Solana address ${owner.toBase58()} has no token account for this asset yet (${ata.toBase58()}); it must be opened before it can be paid`;
}
