/** The wire shape of a `walletRpc` action as the gateway answers it (design: "Wire shape of actions"). */
export interface SolanaWalletRpcAction {
  type: 'walletRpc';
  data: { chain_id: string; method: 'solana_signTransaction'; params: [{ transaction: string }] };
}

/**
 * The action `fetch` returns for a Solana option: `solana_signTransaction` with `[ { transaction } ]`.
 *
 * Why only this method: wallet rule 6 forbids `solana_signAndSendTransaction` for these flows; the wallet
 * returns the whole signed transaction (base64) and the service verifies and broadcasts it itself.
 */
export function signTransactionAction(caip2: string, transactionBase64: string): SolanaWalletRpcAction {
  if (!/^solana:[-_a-zA-Z0-9]{1,32}$/.test(caip2)) throw new Error(`not a Solana CAIP-2 id: ${caip2}`);
  return { type: 'walletRpc', data: { chain_id: caip2, method: 'solana_signTransaction', params: [{ transaction: transactionBase64 }] } };
}
