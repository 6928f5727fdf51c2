// The chain port conformance suite on the Solana adapter against the in-process sandbox (LiteSVM
// behind the `SolanaRpc` embedded mode gives it): a buyer holding USDC and no SOL, a wallet that
// signs what fetch built, and a node that can hold what it accepted until told to include it. The
// same suite runs over JSON-RPC through the fault proxy in conformance-json-rpc.test.ts.
import { chainPortConformance } from '../conformance/chain-port-conformance.ts';
import { SOLANA_DECLARED, openSolanaHarness } from '../conformance/solana-transports.ts';

chainPortConformance('Solana adapter on the sandbox (LiteSVM), in process', SOLANA_DECLARED, () => openSolanaHarness('in-process'));
