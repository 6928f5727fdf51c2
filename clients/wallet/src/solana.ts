/** `@mps/wallet/solana`: Solana signers over a Keypair or a signTransaction wallet (needs @solana/web3.js 1.x). */
export { solanaKeypairSigner, solanaWalletSigner, type SolanaWalletLike } from './signers/solana-signers.ts';
