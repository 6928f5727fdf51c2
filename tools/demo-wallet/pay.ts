import {
  createGatewayClient,
  executeActions,
  resolveBuildActions,
  ActionExecutionError,
  type PaymentOption,
  type PaymentOptions,
  type PaymentStatusResult,
  type WalletRpcAction,
} from '../../clients/wallet/src/index.ts';
import { createBuyer, type Buyer } from './buyer.ts';
import { DemoWalletError } from './errors.ts';
import { actionMethod, formatAmount, fromBaseUnits, optionAsset, shorten } from './format.ts';
import { createSandboxApi, type SandboxApi, type SandboxInfo } from './sandbox-api.ts';

export interface PayConfig {
  paymentId: string;
  baseUrl: string;
  apiKey: string;
  /** CAIP-19 of the asset to pay with; absent: the first option offered. */
  asset?: string;
  /** How long confirm may long-poll on the service. */
  maxPollMs: number;
  /** How long to wait for a final status after confirm. */
  timeoutMs: number;
}

/** Native coin sent to an EVM buyer whose option broadcasts a transaction (approval, transfer). */
const EVM_GAS_MONEY = 10n ** 17n;

/**
 * The demo wallet's whole run, printing each step: learn the sandbox, make fresh keys, ask for
 * options with both accounts, pick one, fund exactly what it costs from the faucet, execute its
 * actions with the SDK executor, confirm, wait for the final status.
 *
 * Why options come before funding: the amount to fund is the quoted option amount, which only
 * the gateway knows; the options do not depend on balances, so the quote stays valid.
 */
export async function payOnSandbox(config: PayConfig, print: (line: string) => void): Promise<PaymentStatusResult> {
  const sandboxApi = createSandboxApi(config.baseUrl);
  const sandbox = await sandboxApi.info();
  print(`Sandbox at ${config.baseUrl}: ${sandbox.chains.map((c) => `${c.name} (${c.caip2})`).join(', ')}`);
  const buyer = await createBuyer(sandbox);
  try {
    print(`Fresh buyer keys:\n  EVM     ${buyer.evmAddress}\n  Solana  ${buyer.solanaAddress}`);
    const client = createGatewayClient({ baseUrl: config.baseUrl, apiKey: config.apiKey });
    const offer = await client.getOptions(config.paymentId, { accounts: buyer.accounts, includePaymentInfo: true });
    printOffer(config.paymentId, offer, print);
    const option = chooseOption(offer, config.asset);
    print(`Option chosen: ${formatAmount(option.amount)} (${optionAsset(option)}) from ${option.account}`);
    await fundFor(option, sandbox, sandboxApi, print);

    const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(config.paymentId, { optionId: option.id, data: build.build.data }));
    const builds = option.actions.filter((a) => a.type === 'build').length;
    if (builds > 0) print(`Fetch: ${builds} build action(s) resolved by the gateway into ${actions.length - option.actions.length + builds} wallet call(s)`);
    print(`Actions (${actions.length}):`);
    const results = await execute(actions, buyer, print);
    results.forEach((result, index) => print(`  result ${index + 1}: ${shorten(String(result.data[0]))}`));

    let status = await client.confirm(config.paymentId, { optionId: option.id, results }, { maxPollMs: config.maxPollMs });
    print(`Confirm: ${status.status}${status.isFinal ? ' (final)' : ` (not final yet, poll in ${status.pollInMs ?? '?'} ms)`}`);
    if (!status.isFinal) {
      status = await client.waitForFinal(config.paymentId, { timeoutMs: config.timeoutMs, onStatus: (s) => print(`  status: ${s.status}`) });
    }
    const tx = status.info ? `, transaction ${status.info.txId}, ${formatAmount(status.info.optionAmount)}` : '';
    const failure = status.failureCode ? `, failure code ${status.failureCode}` : '';
    print(`Final status: ${status.status}${tx}${failure}`);
    return status;
  } finally {
    buyer.close();
  }
}

function printOffer(paymentId: string, offer: PaymentOptions, print: (line: string) => void): void {
  const info = offer.info;
  if (info !== null) {
    const expires = new Date(info.expiresAt * 1000).toISOString();
    print(`Payment ${paymentId}: ${formatAmount(info.amount)} to ${info.merchant.name} (${info.status}, expires ${expires})`);
  }
  print(`Options offered (${offer.options.length}):`);
  offer.options.forEach((option, index) => {
    const methods = option.actions.map(actionMethod).join(' + ');
    print(`  ${index + 1}. ${formatAmount(option.amount)}  asset ${optionAsset(option)}  account ${option.account}  actions: ${methods}`);
  });
}

/** `--asset` picks by CAIP-19 (case-insensitive: EVM addresses may differ in checksum case). */
function chooseOption(offer: PaymentOptions, asset: string | undefined): PaymentOption {
  if (offer.options.length === 0) throw new DemoWalletError('the gateway offered no way to pay this payment with the sandbox accounts');
  if (asset === undefined) return offer.options[0] as PaymentOption;
  const hit = offer.options.find((o) => optionAsset(o).toLowerCase() === asset.toLowerCase());
  if (hit === undefined) {
    throw new DemoWalletError(`no option pays in ${asset}; offered: ${offer.options.map(optionAsset).join(', ')}`);
  }
  return hit;
}

/**
 * Funds exactly the option's amount of its token, plus gas money on EVM when an action
 * broadcasts a transaction. A Solana buyer needs no SOL: the service pays the fees.
 */
async function fundFor(option: PaymentOption, sandbox: SandboxInfo, api: SandboxApi, print: (line: string) => void): Promise<void> {
  const asset = optionAsset(option);
  const balance = await api.fund(option.account, asset, BigInt(option.amount.value));
  print(`Faucet: ${formatAmount(option.amount)} to ${option.account} (balance ${balance})`);
  const broadcasts = option.actions.some((a) => a.type === 'build' || a.walletRpc.method === 'eth_sendTransaction');
  if (!option.account.startsWith('eip155:') || !broadcasts) return;
  const chain = sandbox.chains.find((c) => option.account.startsWith(`${c.caip2}:`));
  if (chain === undefined) throw new DemoWalletError(`the option's account ${option.account} is not on a sandbox chain`);
  await api.fund(option.account, null, EVM_GAS_MONEY);
  print(`Faucet: ${fromBaseUnits(EVM_GAS_MONEY.toString(), chain.nativeCoin.decimals)} ${chain.nativeCoin.symbol} for gas`);
}

/** Runs the SDK executor; a signer's own failure is reported with the action it happened in. */
async function execute(actions: WalletRpcAction[], buyer: Buyer, print: (line: string) => void) {
  let current = 0;
  try {
    return await executeActions(actions, {
      ...buyer.signers,
      onAction: (action, index) => {
        current = index;
        print(`  ${index + 1}/${actions.length} ${action.walletRpc.method} on ${action.walletRpc.chainId}${actionDetail(action)}`);
      },
    });
  } catch (error) {
    if (error instanceof ActionExecutionError) throw error;
    const method = actions[current]?.walletRpc.method ?? '?';
    throw new DemoWalletError(`action ${current + 1} (${method}) failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What the action is about, read from its params: the typed data's type or the transaction's target. */
function actionDetail(action: WalletRpcAction): string {
  try {
    const params: unknown = JSON.parse(action.walletRpc.params);
    if (!Array.isArray(params)) return '';
    if (action.walletRpc.method === 'eth_signTypedData_v4') {
      const typed: unknown = JSON.parse(String(params[1]));
      const primary = typeof typed === 'object' && typed !== null ? (typed as { primaryType?: unknown }).primaryType : undefined;
      return typeof primary === 'string' ? ` (sign ${primary})` : '';
    }
    if (action.walletRpc.method === 'eth_sendTransaction') {
      const tx: unknown = params[0];
      const to = typeof tx === 'object' && tx !== null ? (tx as { to?: unknown }).to : undefined;
      return typeof to === 'string' ? ` (transaction to ${to})` : '';
    }
  } catch {
    // a detail is only decoration; the executor validates the params itself
  }
  return '';
}
