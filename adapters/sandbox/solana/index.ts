// In-process Solana for the embedded mode and tests: LiteSVM + a USDC-like SPL mint, a `SolanaRpc`
// connection over it, and an optional JSON-RPC HTTP facade for clients that need a URL.
export { createSolanaSandbox, type SolanaSandbox, type SolanaSandboxOptions } from './sandbox.ts';
export { answerSolanaRpc, solanaRpcHandler, startRpcFacade, type RpcFacade } from './rpc-facade.ts';
