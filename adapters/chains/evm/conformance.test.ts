// The chain port conformance suite on the EVM adapter against the in-process sandbox chain (EDR,
// real USDC and Permit2): what embedded mode runs. The same suite runs over JSON-RPC through the
// fault proxy in conformance-json-rpc.test.ts.
import { chainPortConformance } from '../conformance/chain-port-conformance.ts';
import { EVM_DECLARED, openEvmHarness } from '../conformance/evm-transports.ts';

// The embedded sandbox's provider reads its one in-process node as it is: a lagging replica is a
// production condition, met by the JSON-RPC transport's production wiring (conformance-json-rpc.test.ts).
chainPortConformance('EVM adapter on the sandbox (EDR), in process', EVM_DECLARED, () => openEvmHarness('in-process'), { readsNeverGoBackwards: false });
