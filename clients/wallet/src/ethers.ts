/** `@mps/wallet/ethers`: the EVM signer over an ethers 6 Wallet (kept apart so the core needs no ethers). */
export { ethersWalletSigner, toEthersRequest, type EthersWalletSignerOptions } from './signers/ethers-wallet-signer.ts';
export { parseTypedData, type ParsedTypedData } from './signers/evm-typed-data.ts';
