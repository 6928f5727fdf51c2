// The sandbox's HTTP surface and the chains behind it (sandbox mode only).
export { createSandboxChains, type SandboxChains, type SandboxChainsOptions, type NativeCoin } from './chains.ts';
export { createSandboxRouter, type SandboxRouterOptions } from './router.ts';
