// The chain port's relayer scenarios on the EVM adapter: the sandbox chain (EDR, real USDC, Permit2
// and a Tether-like USDT) behind a fault layer that answers like geth, bor, Erigon and Nethermind.
import { relayerScenarios } from '../conformance/relayer-scenarios.ts';
import { openEvmRelayerHarness } from './test-support/relayer-harness.ts';

// Sandbox ether weighed at 1 USD, as the sandbox's chain profile does.
// Batching on (EVM_RELAYER_BATCH_MAX above 1, the default): every scenario also goes through the batcher.
relayerScenarios('EVM adapter on the sandbox (EDR) behind a fault layer', () => openEvmRelayerHarness({ nativeUsdMicros: 1_000_000n, batchMax: 4, batchWindowMs: 20 }));
