// The Solana end-to-end suite with the adapter on the in-process LiteSVM connection.
import { solanaGatewaySuite } from './e2e/solana-gateway-suite.ts';

solanaGatewaySuite('sandbox');
