// The chain port conformance suite on the Solana adapter as production wires it (web3.js's
// Connection from its RPC URL), over JSON-RPC through the fault proxy to the standalone sandbox
// chains this test worker shares.
import { chainPortConformance } from '../conformance/chain-port-conformance.ts';
import { SOLANA_DECLARED, openSolanaHarness } from '../conformance/solana-transports.ts';

chainPortConformance('Solana adapter over JSON-RPC through the fault proxy', SOLANA_DECLARED, () => openSolanaHarness('json-rpc'));
