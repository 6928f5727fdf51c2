// The steady load, over HTTP only: a partner creating payments (each with its own
// Idempotency-Key, repeated with the same key until acknowledged) and a wallet paying others
// through the gateway with EIP-3009 (USDC), Permit2 (USDT, approval sent by the wallet itself)
// and Solana SPL (fetch → sign → confirm). Buyers are funded by the chains' HTTP faucet.
import { randomUUID } from 'node:crypto';
import { Contract } from 'ethers';
import { createGatewayClient, executeActions, GatewayError, resolveBuildActions, type PaymentOption } from '../../clients/wallet/src/index.ts';
import { createBuyer, type Buyer } from '../demo-wallet/buyer.ts';
import { waitingButForLast } from './approval-waits.ts';
import { createSandboxApi, type SandboxInfo } from '../demo-wallet/sandbox-api.ts';
import type { Api } from './api.ts';

export type Flow = 'eip3009' | 'permit2' | 'spl';
export const FLOWS: Flow[] = ['eip3009', 'permit2', 'spl'];

export interface LoadSetup {
  api: Api;
  partnerKey: string;
  walletKey: string;
  merchantId: string;
  chainsUrl: string;
  sandbox: SandboxInfo;
  /** CAIP-19 of the asset each flow pays in. */
  assetOf: Record<Flow, string>;
}

export interface LoadStats {
  /** referenceId → paymentId, for every create the API acknowledged (201). */
  acked: Map<string, string>;
  /** Creates never acknowledged (a 4xx, or no answer within the client's patience): counted, not hidden. */
  createFailures: string[];
  /**
   * paymentId → the flow it was paid with, for every confirm the gateway accepted: the flow asked
   * for, or `transfer` when the offer had only the direct transfer for that asset (the gasless
   * flows are left out under a fee spike; the buyer then pays by its own transaction).
   */
  confirmed: Map<string, Flow | 'transfer'>;
  /** Payments the wallet could not get to an accepted confirm, with why. */
  walletErrors: string[];
  /** Confirms sent and not yet answered: a worker is killed while this is above zero. */
  confirmsInFlight: number;
  /** How long each gateway options call took, ms (answered or not). */
  optionsMs: number[];
  /** Options calls asked again because the first answer lacked the flow's option (a chain left out for now). */
  optionsAskedAgain: number;
  /** Permit2 payments by buyers who approve first (fresh keys: every one is a first-timer), and those that succeeded (counted after the drain). */
  permit2FirstTimers: { total: number };
  /**
   * Permit2 payments whose buyer had left a finite allowance to Permit2 below the amount (1 base
   * unit): USDT refuses to change one non-zero allowance to another, so the approval must go to 0 first.
   */
  leftoverAllowance: string[];
  /** Payments being paid now → the step each is at: one still here when the load stops never finished, and says where it hung. */
  paying: Map<string, string>;
}

const CREATES_PER_S = 10;
const PAYMENTS_PER_S = 1.5;
const MAX_CREATES_IN_FLIGHT = 16;
const MAX_PAYMENTS_IN_FLIGHT = 8;
/** Creates expire within the drain bound, but after a fault-cut attempt's stale idempotency claim (60 s). */
export const CREATE_TTL_S = 75;
/** Payments to pay live long enough to be paid (and to outlast a stale claim, as above). */
export const PAY_TTL_S = 75;
/** Native coin for a buyer who sends the Permit2 approval himself. */
const GAS_MONEY = 10n ** 17n;

function message(err: unknown): string {
  if (err instanceof GatewayError) return `${err.status} ${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/** One create, repeated with the same Idempotency-Key on no answer or a 5xx until acknowledged. */
async function create(s: LoadSetup, stats: LoadStats, referenceId: string, value: string, ttlS: number): Promise<string | null> {
  const key = randomUUID();
  const body = { amount: { unit: 'iso4217/USD', value }, referenceId, expiresAt: Math.floor(Date.now() / 1000) + ttlS };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      const res = await s.api.call('POST', '/v1/payments', s.partnerKey, body, { 'Merchant-Id': s.merchantId, 'Idempotency-Key': key });
      if (res.status === 201) {
        const paymentId = (res.body as { paymentId: string }).paymentId;
        stats.acked.set(referenceId, paymentId);
        return paymentId;
      }
      // 409 idempotency_in_progress: the first attempt with this key is still being written
      // (by the other process, perhaps); its answer says to retry shortly.
      const busy = res.status === 409 && (res.body as { code?: string } | null)?.code === 'idempotency_in_progress';
      if (res.status < 500 && res.status !== 429 && !busy) {
        stats.createFailures.push(`${referenceId}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        return null;
      }
    } catch {
      // no answer from either process yet: same key again
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stats.createFailures.push(`${referenceId}: not acknowledged within 90 s`);
  return null;
}

/** A fresh buyer pays one payment with `flow`, up to an accepted confirm. */
async function pay(s: LoadSetup, stats: LoadStats, gate: FaucetGate, label: string, paymentId: string, flow: Flow, buyer: Buyer): Promise<void> {
  const step = (what: string) => void stats.paying.set(label, `${what} since ${new Date().toISOString().slice(11, 19)}`);
  step('options');
  const client = createGatewayClient({ baseUrl: s.api.bases[0]!, apiKey: s.walletKey }, { fetch: s.api.fetch });
  const faucet = createSandboxApi(s.chainsUrl);
  const asset = s.assetOf[flow].toLowerCase();
  const ask = async () => {
    const asked = Date.now();
    const offer = await client.getOptions(paymentId, { accounts: buyer.accounts }).finally(() => void stats.optionsMs.push(Date.now() - asked));
    return { offer, option: offer.options.find((o: PaymentOption) => o.amount.unit.replace(/^caip19\//, '').toLowerCase() === asset) };
  };
  let { offer, option } = await ask();
  if (!option) {
    // A chain left out of an answer is left out "for now": a wallet asks again once, as its
    // buyer would tap refresh. Counted in the table, so a service that leans on it shows.
    stats.optionsAskedAgain++;
    await new Promise((r) => setTimeout(r, 1000));
    ({ offer, option } = await ask());
  }
  if (!option) throw new Error(`no ${flow} option among ${offer.options.map((o) => o.amount.unit).join(', ')}`);
  step('faucet');
  await throughGate(gate, async () => {
    await faucet.fund(option.account, s.assetOf[flow], BigInt(option.amount.value));
    // Gas money for every EVM buyer: an offer with only the direct transfer has the buyer send it.
    if (flow !== 'spl') await faucet.fund(option.account, null, GAS_MONEY);
  });
  step('fetch');
  const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(paymentId, { optionId: option.id, data: build.build.data }));
  // Counted as what pays it (read from the actions once built): a direct transfer is the buyer's own transaction, never the relayer's.
  const paidWith = flow !== 'spl' && paysByTransfer(actions) ? 'transfer' : flow;
  step(`actions (${actions.map((a) => ('data' in a && typeof a.data === 'object' && a.data && 'method' in a.data ? String(a.data.method) : a.type)).join(', ')})`);
  // Half the Permit2 first-timers do not wait for their approval to be mined (a wallet that
  // signs at once, as the SDK did before): confirm arrives while the approval is pending (a USDT
  // reset to 0 is still waited for: see approval-waits.ts).
  const awaitApproval = flow !== 'permit2' || stats.permit2FirstTimers.total++ % 2 === 0;
  const signers = awaitApproval || !buyer.signers.evm ? buyer.signers : { ...buyer.signers, evm: waitingButForLast(buyer.signers.evm, actions) };
  const results = await executeActions(actions, signers);
  step('confirm');
  stats.confirmsInFlight++;
  try {
    await confirmOnce(client, paymentId, option.id, results);
  } finally {
    stats.confirmsInFlight--;
  }
  stats.confirmed.set(paymentId, paidWith);
}

/** Whether the option is the direct transfer (the buyer's `transfer(...)` call), not a gasless flow. */
function paysByTransfer(actions: readonly object[]): boolean {
  return actions.some((a) => {
    const data = 'data' in a && typeof a.data === 'object' && a.data !== null ? (a.data as { method?: unknown; params?: unknown }) : null;
    const first = Array.isArray(data?.params) ? (data.params[0] as { data?: unknown } | undefined) : undefined;
    return data?.method === 'eth_sendTransaction' && typeof first?.data === 'string' && first.data.startsWith('0xa9059cbb');
  });
}

/** The buyer approves Permit2 for 1 base unit of `asset` (paying its own gas): a leftover finite allowance. */
async function leaveAllowance(s: LoadSetup, gate: FaucetGate, buyer: Buyer, asset: string): Promise<void> {
  const chain = s.sandbox.chains.find((c) => c.namespace === 'eip155');
  if (!chain?.permit2Address) throw new Error('GET /sandbox names no Permit2 address');
  const token = new Contract(asset.split(':').at(-1)!, ['function approve(address,uint256) returns (bool)'], buyer.evmWallet);
  await throughGate(gate, async () => {
    await createSandboxApi(s.chainsUrl).fund(`${chain.caip2}:${buyer.evmAddress}`, null, GAS_MONEY);
    // Sent and mined inside the gate: a reorg's revert must not undo the gas money under a pending approval.
    const sent = (await token.getFunction('approve').send(chain.permit2Address, 1n)) as { wait(): Promise<unknown> };
    await sent.wait();
  });
}

type Results = Awaited<ReturnType<typeof executeActions>>;

/**
 * Confirm with a short long-poll. A confirm whose answer was lost may have been taken: sent again,
 * the service answers that the payment is no longer payable with these results, so the status
 * decides whether it was accepted.
 */
async function confirmOnce(client: ReturnType<typeof createGatewayClient>, paymentId: string, optionId: string, results: Results): Promise<void> {
  try {
    await client.confirm(paymentId, { optionId, results }, { maxPollMs: 1000 });
  } catch (err) {
    const status = await client.getStatus(paymentId).catch(() => null);
    if (status && status.status !== 'requires_action' && status.status !== 'expired' && status.status !== 'cancelled') return;
    throw err;
  }
}

/**
 * Holds the faucet while a reorg is made: the sandbox funds gas money by setting a balance, not by
 * a transaction, so a balance set between the snapshot and the revert would vanish with it (a
 * buyer's transfers, in blocks or pending, are sent again; a set balance is not a transfer).
 */
interface FaucetGate {
  open: Promise<void> | null;
  inFlight: number;
  drained: (() => void) | null;
}

async function throughGate<T>(gate: FaucetGate, fund: () => Promise<T>): Promise<T> {
  while (gate.open) await gate.open;
  gate.inFlight++;
  try {
    return await fund();
  } finally {
    if (--gate.inFlight === 0) gate.drained?.();
  }
}

export interface Load {
  stats: LoadStats;
  /** Holds new faucet calls and resolves once those under way are done. */
  holdFaucet(): Promise<void>;
  releaseFaucet(): void;
  /** Stops launching and waits (bounded) for everything launched to finish. */
  stop(drainMs: number): Promise<void>;
}

/** Starts the creates and the payments at steady rates, each with bounded concurrency. */
export function startLoad(s: LoadSetup): Load {
  const stats: LoadStats = {
    acked: new Map(),
    createFailures: [],
    confirmed: new Map(),
    walletErrors: [],
    confirmsInFlight: 0,
    optionsMs: [],
    paying: new Map(),
    permit2FirstTimers: { total: 0 },
    leftoverAllowance: [],
    optionsAskedAgain: 0,
  };
  const running = new Set<Promise<void>>();
  const gate: FaucetGate = { open: null, inFlight: 0, drained: null };
  let reopen: (() => void) | null = null;
  let creates = 0;
  let payments = 0;
  let creating = 0;
  let paying = 0;
  const run = (work: Promise<void>) => {
    const p = work.finally(() => running.delete(p));
    running.add(p);
  };
  const createTimer = setInterval(() => {
    if (creating >= MAX_CREATES_IN_FLIGHT) return;
    creating++;
    const n = creates++;
    run(create(s, stats, `load-${n}`, String(100 + (n % 900)), CREATE_TTL_S).then(() => void creating--));
  }, 1000 / CREATES_PER_S);
  const payTimer = setInterval(() => {
    if (paying >= MAX_PAYMENTS_IN_FLIGHT) return;
    paying++;
    const n = payments++;
    const flow = FLOWS[n % FLOWS.length]!;
    const work = async () => {
      const buyer = await createBuyer(s.sandbox);
      try {
        // Every other Permit2 buyer left a finite allowance to Permit2 behind (an earlier dapp's),
        // before this payment existed: its options must zero it first. Left before the create, so
        // the buyer's own approval under the faults does not eat the payment's time.
        const leftover = flow === 'permit2' && Math.floor(n / FLOWS.length) % 2 === 1;
        if (leftover) await leaveAllowance(s, gate, buyer, s.assetOf[flow].toLowerCase());
        const id = await create(s, stats, `pay-${n}`, String(50 + (n % 450)), PAY_TTL_S);
        const label = `pay-${n} (${flow}, ${id})`;
        if (!id) return;
        if (leftover) stats.leftoverAllowance.push(id);
        await pay(s, stats, gate, label, id, flow, buyer)
          .catch((err: unknown) => void stats.walletErrors.push(`${label}: ${message(err)}`))
          .finally(() => stats.paying.delete(label));
      } catch (err) {
        stats.walletErrors.push(`pay-${n} (${flow}): ${message(err)}`);
      } finally {
        buyer.close();
      }
    };
    run(work().finally(() => void paying--));
  }, 1000 / PAYMENTS_PER_S);
  return {
    stats,
    async holdFaucet() {
      if (gate.open) return;
      gate.open = new Promise((r) => (reopen = r));
      if (gate.inFlight > 0) await new Promise<void>((r) => (gate.drained = r));
      gate.drained = null;
    },
    releaseFaucet() {
      gate.open = null;
      reopen?.();
      reopen = null;
    },
    async stop(drainMs) {
      clearInterval(createTimer);
      clearInterval(payTimer);
      await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, drainMs))]);
      // A payment still being paid never got to an accepted confirm: a wallet error, with where it hung.
      for (const [label, at] of stats.paying) stats.walletErrors.push(`${label}: did not finish within ${drainMs / 1000} s after the load, at ${at}`);
    },
  };
}
