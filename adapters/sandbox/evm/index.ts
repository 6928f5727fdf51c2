// Public surface of the sandbox EVM chain.
export { createEvmSandbox } from './sandbox.ts';
export type { EvmFlow, EvmSandbox, EvmSandboxOptions, SandboxAsset } from './sandbox.ts';
export type { Eip1193Provider, JsonRpcHandlerOptions } from './json-rpc.ts';
export { RpcError } from './json-rpc.ts';
export { sandboxAddresses, SANDBOX_DEPLOYER_KEY, SANDBOX_RELAYER_KEY } from './deploy.ts';
export type { SandboxAddresses } from './deploy.ts';
