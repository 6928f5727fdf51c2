// The Solana end-to-end suite on the production path: the adapter built by openChains from the
// standalone chains server's env, speaking JSON-RPC over HTTP to it.
import { solanaGatewaySuite } from './e2e/solana-gateway-suite.ts';

solanaGatewaySuite('rpc');
