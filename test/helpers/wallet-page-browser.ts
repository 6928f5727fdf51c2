import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Keypair, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import axe from 'axe-core';
import { Wallet, type HDNodeWallet } from 'ethers';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SandboxChains } from '../../server/composition/sandbox/index.ts';
import { signTypedDataParams } from './gateway-env.ts';

/**
 * Browser wallets for the payment page's tests, with their keys held by the test (node side)
 * and reached from the page through Playwright bindings:
 *
 * - an EIP-6963 EVM wallet that behaves as MetaMask does where it matters: it knows only the
 *   chains it was given or was asked to add (`wallet_switchEthereumChain` to an unknown chain
 *   fails, wrapped as -32603 like mobile wallets do, not only as 4902), it refuses
 *   `eth_signTypedData_v4` whose domain chain is not the active chain, and it sends real
 *   transactions to the sandbox EVM chain;
 * - a Wallet Standard Solana wallet registered on `app-ready`, signing raw transaction bytes
 *   with its keypair (or, on request, handing back a tampered transaction).
 *
 * `reject` makes the next call of a method answer 4001 (the buyer pressed Reject); `gate`
 * holds a method until the test releases it (to photograph the page while the wallet asks).
 */
export interface TestEvmWallet {
  wallet: HDNodeWallet;
  active: bigint;
  known: Set<bigint>;
  calls: string[];
  reject: Set<string>;
  gate: Map<string, { reached: () => void; release: Promise<void> }>;
}

export interface TestSolanaWallet {
  keypair: Keypair;
  calls: string[];
  tamper: boolean;
}

type WalletAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } };

export function testEvmWallet(chains: SandboxChains, knownChainIds: number[]): TestEvmWallet {
  const known = new Set(knownChainIds.map(BigInt));
  return { wallet: Wallet.createRandom().connect(chains.evm.ethersProvider), active: [...known][0]!, known, calls: [], reject: new Set(), gate: new Map() };
}

export function testSolanaWallet(): TestSolanaWallet {
  return { keypair: Keypair.generate(), calls: [], tamper: false };
}

/** Holds `method` until the returned `release` is called; `reached` resolves once the wallet is asked. */
export function gateMethod(w: TestEvmWallet, method: string): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((r) => (reached = r));
  w.gate.set(method, { reached, release: new Promise<void>((r) => (release = r)) });
  return { reached: reachedPromise, release };
}

const fail = (code: number, message: string, data?: unknown): WalletAnswer => ({ error: { code, message, ...(data ? { data } : {}) } });

async function answerEvm(w: TestEvmWallet, chains: SandboxChains, method: string, params: unknown[]): Promise<WalletAnswer> {
  w.calls.push(method);
  const gate = w.gate.get(method);
  if (gate) {
    w.gate.delete(method);
    gate.reached();
    await gate.release;
  }
  if (w.reject.delete(method)) return fail(4001, 'User rejected the request.');
  const hex = (id: bigint) => `0x${id.toString(16)}`;
  switch (method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return { result: [w.wallet.address] };
    case 'eth_chainId':
      return { result: hex(w.active) };
    case 'wallet_switchEthereumChain': {
      const wanted = BigInt((params[0] as { chainId: string }).chainId);
      if (!w.known.has(wanted)) return fail(-32603, 'Internal JSON-RPC error.', { originalError: { code: 4902, message: `Unrecognized chain ID "${hex(wanted)}"` } });
      w.active = wanted;
      return { result: null };
    }
    case 'wallet_addEthereumChain': {
      const p = params[0] as { chainId: string; chainName?: string; rpcUrls?: string[] };
      if (!p.chainName || !p.rpcUrls?.length) return fail(-32602, 'chainName and rpcUrls are required');
      w.known.add(BigInt(p.chainId));
      return { result: null };
    }
    case 'eth_signTypedData_v4': {
      const chainId = (JSON.parse(String(params[1])) as { domain?: { chainId?: string | number } }).domain?.chainId;
      if (chainId !== undefined && BigInt(chainId) !== w.active) {
        return fail(-32602, `Provided chainId "${String(chainId)}" must match the active chainId "${w.active.toString()}"`);
      }
      return { result: await signTypedDataParams(w.wallet, params) };
    }
    case 'eth_sendTransaction': {
      if (w.active !== BigInt(chains.evm.chainId)) return fail(-32602, 'wrong active chain for this transaction');
      const tx = params[0] as { to: string; data?: string; value?: string; gas?: string };
      const sent = await w.wallet.sendTransaction({ to: tx.to, data: tx.data ?? '0x', value: BigInt(tx.value ?? 0), ...(tx.gas ? { gasLimit: BigInt(tx.gas) } : {}) });
      return { result: sent.hash };
    }
    case 'eth_getTransactionReceipt':
    case 'eth_call':
      if (w.active !== BigInt(chains.evm.chainId)) return fail(-32603, 'the test wallet reads only the sandbox chain');
      return { result: await chains.evm.provider.request({ method, params }) };
    default:
      return fail(4200, `The test wallet does not support ${method}`);
  }
}

async function answerSolana(w: TestSolanaWallet, transaction: string): Promise<WalletAnswer> {
  w.calls.push('solana:signTransaction');
  const bytes = Buffer.from(transaction, 'base64');
  if (w.tamper) {
    // A wallet that adds an instruction of its own (a "tip" to itself) to what the page asked it to sign.
    const tx = Transaction.from(bytes);
    tx.add(SystemProgram.transfer({ fromPubkey: w.keypair.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }));
    tx.partialSign(w.keypair);
    return { result: Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })).toString('base64') };
  }
  const tx = VersionedTransaction.deserialize(bytes);
  tx.sign([w.keypair]);
  return { result: Buffer.from(tx.serialize()).toString('base64') };
}

const ICON = 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"%3E%3Ccircle cx="12" cy="12" r="11" fill="%23f6851b"/%3E%3C/svg%3E';

/** Installs the wallets in every page of `context` before its scripts run. */
export async function installWallets(context: BrowserContext, chains: SandboxChains, wallets: { evm?: TestEvmWallet; solana?: TestSolanaWallet }): Promise<void> {
  const { evm, solana } = wallets;
  if (evm) await context.exposeBinding('__testEvmWallet', (_s, a: { method: string; params?: unknown[] }) => answerEvm(evm, chains, a.method, a.params ?? []));
  if (solana) await context.exposeBinding('__testSolanaWallet', (_s, transaction: string) => answerSolana(solana, transaction));
  const solanaKey = solana ? { address: solana.keypair.publicKey.toBase58(), publicKey: [...solana.keypair.publicKey.toBytes()] } : null;
  await context.addInitScript(
    ({ withEvm, key, icon }) => {
      type Answer = { result?: unknown; error?: { code: number; message: string; data?: unknown } };
      const g = globalThis as unknown as Record<string, (arg: unknown) => Promise<Answer>>;
      const unwrap = (r: Answer) => {
        if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data });
        return r.result;
      };
      if (withEvm) {
        const provider = { request: async (args: { method: string; params?: unknown[] }) => unwrap(await g.__testEvmWallet!(args)) };
        const info = Object.freeze({ uuid: '6d9a2c1e-test-wallet', name: 'Test Wallet', icon, rdns: 'test.wallet' });
        const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
        window.addEventListener('eip6963:requestProvider', announce);
        announce();
      }
      if (key) {
        const account = { address: key.address, publicKey: Uint8Array.from(key.publicKey), chains: ['solana:localnet'], features: ['solana:signTransaction'] };
        const toB64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
        const fromB64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
        const wallet = {
          version: '1.0.0',
          name: 'Test Solana Wallet',
          icon,
          chains: ['solana:localnet'],
          accounts: [account],
          features: {
            'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [account] }) },
            'solana:signTransaction': {
              version: '1.0.0',
              supportedTransactionVersions: ['legacy', 0],
              signTransaction: async (...inputs: { transaction: Uint8Array }[]) =>
                Promise.all(inputs.map(async (i) => ({ signedTransaction: fromB64(unwrap(await g.__testSolanaWallet!(toB64(i.transaction))) as string) }))),
            },
          },
        };
        const callback = (api: { register(w: unknown): unknown }) => api.register(wallet);
        window.addEventListener('wallet-standard:app-ready', (e) => callback((e as CustomEvent<{ register(w: unknown): unknown }>).detail));
        window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
      }
    },
    { withEvm: Boolean(evm), key: solanaKey, icon: ICON },
  );
}

/**
 * Where the page's photographs go: test-results/ on every run, docs/screenshots/wallet-page/
 * (which the hosted-checkout guide shows) only when UPDATE_SCREENSHOTS=1 asks to regenerate them.
 */
const SHOTS = join(import.meta.dirname, process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots/wallet-page' : '../../test-results/wallet-page');

/** No serious or critical axe-core violation; then `<name>-desktop.png` and `<name>-phone.png`. */
export async function checkAndShoot(page: Page, name: string): Promise<void> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run;
    const r = await run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    name,
  ).toEqual([]);
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(size);
}
