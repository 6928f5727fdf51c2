import type { PublicKey } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync, unpackAccount } from '@solana/spl-token';
import type { SolanaRpc } from './rpc.ts';

/**
 * SPL balance (base units) of the owner's associated token account; 0 when it does not exist.
 *
 * Why: options can skip a Solana account that cannot pay, and tests check exact balance deltas.
 */
export async function getTokenBalance(connection: SolanaRpc, owner: PublicKey, mint: PublicKey, tokenProgramId: PublicKey = TOKEN_PROGRAM_ID): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(mint, owner, true, tokenProgramId);
  const info = await connection.getAccountInfo(ata, 'confirmed');
  if (!info) return 0n;
  return unpackAccount(ata, info, tokenProgramId).amount;
}
