// The chain port conformance suite on the EVM adapter as production wires it (from its RPC URL),
// over JSON-RPC through the fault proxy to the standalone sandbox chains this test worker shares.
import { chainPortConformance } from '../conformance/chain-port-conformance.ts';
import { EVM_DECLARED, openEvmHarness } from '../conformance/evm-transports.ts';

chainPortConformance('EVM adapter over JSON-RPC through the fault proxy', EVM_DECLARED, () => openEvmHarness('json-rpc'));
