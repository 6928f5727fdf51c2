// Deterministic deployment of the sandbox contracts: a fixed deployer key and a fixed order of
// transactions, so every address is the same on every run (CREATE address = deployer + nonce).
import { AbiCoder, Contract, ContractFactory, MaxUint256, Wallet, concat, getCreate2Address, getCreateAddress, id, keccak256, type Provider } from 'ethers';
import type { SandboxArtifacts, SpenderArtifact } from './compile.ts';
import { fiatTokenArtifact, signatureCheckerArtifact } from './fiat-token.ts';

/**
 * Well-known sandbox keys (public on purpose, like Hardhat's test accounts): never fund them on a
 * real chain. The relayer is the service's gas payer for gasless flows in the sandbox.
 */
export const SANDBOX_DEPLOYER_KEY = id('merchant-payments-sandbox:evm:deployer');
export const SANDBOX_RELAYER_KEY = id('merchant-payments-sandbox:evm:relayer');
/** Sends the Permit2 spender's deployment (any funded account may: the address does not depend on it). */
export const SANDBOX_SPENDER_DEPLOYER_KEY = id('merchant-payments-sandbox:evm:spender-deployer');

/** Deployer nonce of each step; changing the order changes the addresses. */
const NONCE = { signatureChecker: 0, usdc: 1, permit2: 7, plainToken: 8, directToken: 9 } as const;

export type SandboxAddresses = {
  deployer: string;
  signatureChecker: string;
  usdc: string;
  permit2: string;
  plainToken: string;
  directToken: string;
};

/** The addresses deployment will produce, computable without running anything. */
export function sandboxAddresses(): SandboxAddresses {
  const deployer = new Wallet(SANDBOX_DEPLOYER_KEY).address;
  const at = (nonce: number): string => getCreateAddress({ from: deployer, nonce });
  return {
    deployer,
    signatureChecker: at(NONCE.signatureChecker),
    usdc: at(NONCE.usdc),
    permit2: at(NONCE.permit2),
    plainToken: at(NONCE.plainToken),
    directToken: at(NONCE.directToken),
  };
}

export const USDC_METADATA = { name: 'USD Coin', symbol: 'USDC', currency: 'USD', decimals: 6 } as const;
export const PLAIN_TOKEN_METADATA = { name: 'Sandbox Tether USD', symbol: 'USDT', decimals: 6 } as const;
/**
 * A second plain ERC-20 that the sandbox lists for direct transfer only (no EIP-3009, no Permit2):
 * with USDC (EIP-3009) and USDT (Permit2) a wallet team meets all three EVM flows on the sandbox.
 */
export const DIRECT_TOKEN_METADATA = { name: 'Sandbox Direct-Transfer USD', symbol: 'DTUSD', decimals: 6 } as const;

/**
 * Deploys SignatureChecker, FiatTokenV2_2 (initialized through V2_2, deployer as master minter and
 * a configured minter), Permit2, the Tether-like USDT and the direct-transfer token (the same plain
 * ERC-20 code, deployed last so every earlier address stays where it was). Verifies each lands where expected, so a
 * change in order or key fails loudly instead of moving addresses silently.
 */
export async function deploySandboxContracts(provider: Provider, artifacts: SandboxArtifacts): Promise<SandboxAddresses> {
  const expected = sandboxAddresses();
  const deployer = new Wallet(SANDBOX_DEPLOYER_KEY, provider);
  let nonce = await provider.getTransactionCount(deployer.address, 'pending');
  if (nonce !== 0) throw new Error(`Sandbox deployer already used (nonce ${nonce}); deploy needs a fresh chain`);

  const deploy = async (abi: unknown[], bytecode: string, args: unknown[]): Promise<string> => {
    const factory = new ContractFactory(abi as never, bytecode, deployer);
    const contract = await factory.deploy(...args, { nonce: nonce++ });
    await contract.waitForDeployment();
    return contract.getAddress();
  };
  const send = async (contract: Contract, method: string, args: unknown[]): Promise<void> => {
    const fn = contract.getFunction(method);
    const tx = await fn.send(...args, { nonce: nonce++ });
    const receipt = await tx.wait();
    if (receipt?.status !== 1) throw new Error(`Sandbox setup call ${method} failed`);
  };

  const checker = signatureCheckerArtifact();
  const signatureChecker = await deploy(checker.abi, checker.bytecode, []);
  const fiat = fiatTokenArtifact(signatureChecker);
  const usdcAddress = await deploy(fiat.abi, fiat.bytecode, []);
  const usdc = new Contract(usdcAddress, fiat.abi as never, deployer);
  const me = deployer.address;
  await send(usdc, 'initialize', [USDC_METADATA.name, USDC_METADATA.symbol, USDC_METADATA.currency, USDC_METADATA.decimals, me, me, me, me]);
  await send(usdc, 'initializeV2', [USDC_METADATA.name]);
  await send(usdc, 'initializeV2_1', [me]);
  await send(usdc, 'initializeV2_2', [[], USDC_METADATA.symbol]);
  await send(usdc, 'configureMinter', [me, MaxUint256]);
  const permit2 = await deploy(artifacts.permit2.abi, artifacts.permit2.bytecode, []);
  // USDT behaves as Tether's does (compile.ts): at the address the sandbox's plain USDT always had.
  const plainToken = await deploy(artifacts.tetherToken.abi, artifacts.tetherToken.bytecode, [
    0,
    PLAIN_TOKEN_METADATA.name,
    PLAIN_TOKEN_METADATA.symbol,
    PLAIN_TOKEN_METADATA.decimals,
  ]);

  const directToken = await deploy(artifacts.plainToken.abi, artifacts.plainToken.bytecode, [
    DIRECT_TOKEN_METADATA.name,
    DIRECT_TOKEN_METADATA.symbol,
    DIRECT_TOKEN_METADATA.decimals,
  ]);

  const actual: SandboxAddresses = { deployer: me, signatureChecker, usdc: usdcAddress, permit2, plainToken, directToken };
  for (const key of Object.keys(expected) as (keyof SandboxAddresses)[]) {
    if (actual[key] !== expected[key]) throw new Error(`Sandbox ${key} deployed at ${actual[key]}, expected ${expected[key]}`);
  }
  return actual;
}

/**
 * The deterministic deployment proxy every production chain has (Arachnid's), and the salt the
 * service's Permit2 spender is deployed with: the same as adapters/chains/evm/permit2-spender.ts
 * (an adapter family imports no other; a test holds the two equal).
 */
export const DETERMINISTIC_DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
const DETERMINISTIC_DEPLOYER_RUNTIME =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
const PERMIT2_SPENDER_SALT = id('merchant-payments:permit2-payment-spender:1');

/**
 * Places the proxy (as every production chain has it; placed, so no account's nonce moves) and
 * deploys the Permit2 spender through it by CREATE2, as an operator does on a real chain: from a
 * key of its own, so no earlier sandbox address moves. Answers the spender's address.
 */
export async function deployPermit2Spender(
  provider: Provider & { send(method: string, params: unknown[]): Promise<unknown> },
  artifact: SpenderArtifact,
  permit2: string,
): Promise<string> {
  await provider.send('hardhat_setCode', [DETERMINISTIC_DEPLOYER, DETERMINISTIC_DEPLOYER_RUNTIME]);
  const initCode = concat([artifact.creationCode, AbiCoder.defaultAbiCoder().encode(['address'], [permit2])]);
  const address = getCreate2Address(DETERMINISTIC_DEPLOYER, PERMIT2_SPENDER_SALT, keccak256(initCode));
  const deployer = new Wallet(SANDBOX_SPENDER_DEPLOYER_KEY, provider);
  const receipt = await (await deployer.sendTransaction({ to: DETERMINISTIC_DEPLOYER, data: concat([PERMIT2_SPENDER_SALT, initCode]) })).wait();
  if (receipt?.status !== 1 || (await provider.getCode(address)) === '0x') throw new Error(`Sandbox Permit2 spender did not land at ${address}`);
  return address;
}
