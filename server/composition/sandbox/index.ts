// The sandbox's HTTP surface and the chains behind it (sandbox mode only).
export { createSandboxChains, type SandboxChains } from './chains.ts';
export { createSandboxRouter } from './router.ts';
