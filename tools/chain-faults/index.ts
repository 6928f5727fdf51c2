// The chain fault instrument's public surface: the fault proxy (HTTP, several nodes per chain),
// the same faults in process, the chains' dev controls (reorgs, base fee, blockhash expiry), and
// the standalone sandbox chains a test worker shares. Keep it stable: other suites build on it.
// (The types of each part are exported by its own module: faults.ts lists every fault.)
export { startRpcFaultProxy, type RpcFaultProxy } from './proxy.ts';
export { inProcessFaults } from './in-process.ts';
export { evmDev, solanaDev, type EvmDev, type ReorgResult } from './dev.ts';
export { sharedSandboxChains } from './standalone.ts';
export type { CallFilter, FaultControl } from './control.ts';
export type { CallRecord } from './engine.ts';
export type { Fault, FaultScope } from './faults.ts';
export { httpUpstream, type UpstreamCall } from './upstream.ts';
