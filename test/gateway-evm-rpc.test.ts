// The EVM end-to-end suite on the production path: adapters built by openChains from the standalone
// chains server's env, speaking JSON-RPC over HTTP; buyer wallets broadcast over it too.
import { evmGatewaySuite } from './e2e/evm-gateway-suite.ts';

evmGatewaySuite('rpc');
