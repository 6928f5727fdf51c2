// The EVM end-to-end suite with the adapters on the in-process sandbox objects.
import { evmGatewaySuite } from './e2e/evm-gateway-suite.ts';

evmGatewaySuite('sandbox');
