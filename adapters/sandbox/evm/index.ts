// Public surface of the sandbox EVM chain.
export { createEvmSandbox } from './sandbox.ts';
export type { EvmSandbox, EvmSandboxOptions } from './sandbox.ts';
export { sandboxAddresses } from './deploy.ts';
