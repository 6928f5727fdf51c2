/**
 * The payment page's "Pay with a browser wallet" (browser-wallet-section.ts renders its HTML).
 * Built by `npm run build:pages` into static/wallet.js with `@mps/wallet`: the page uses the
 * SDK's gateway client (keyless, on the page's own routes), executor and signers, not a copy.
 *
 * Flow: find wallets → the buyer picks one → connect → options for its accounts → the best
 * option is shown as the wallet will ask it (amount, network, recipient, steps, form) → Pay:
 * chain switch (and add), balance check, each wallet prompt, confirm → the final status.
 */
import {
  createGatewayClient,
  eip1193Signer,
  ensureEvmChain,
  executeActions,
  evmChainReference,
  resolveBuildActions,
  toCollectedData,
  validateCollectedData,
  walletStandardSolanaSigner,
  type ActionResult,
  type CollectedValue,
  type PaymentOption,
  type PaymentStatusResult,
  type WalletSigners,
} from '../../../clients/wallet/src/index.ts';
import { bestOption, chainOfAccount, recipientOf, stepText, tokenAmountText } from './choose.ts';
import { discoverWallets, type FoundWallet } from './discovery.ts';
import { InsufficientBalanceError, outcomeOf, WrongChainError, type Tone } from './outcomes.ts';
import { clearPending, loadPending, savePending } from './pending.ts';
import { evmAccounts, evmBalance, solanaConnect, type AddableChains } from './wallet-access.ts';

const section = document.getElementById('browser-wallet');
if (section) start(section);

function start(root: HTMLElement): void {
  const el = (id: string) => document.getElementById(id)!;
  const paymentId = root.dataset.paymentId!;
  const chains = JSON.parse(root.dataset.chains ?? '[]') as string[];
  const networks = JSON.parse(root.dataset.networks ?? '{}') as Record<string, string>;
  const addable = JSON.parse(root.dataset.addable ?? '{}') as AddableChains;
  // EIP-3085 descriptions keyed by decimal chain reference, as the SDK's EIP-1193 signer takes them.
  const addableByRef = Object.fromEntries(Object.entries(addable).map(([caip2, p]) => [evmChainReference(caip2), p]));
  const client = createGatewayClient({ baseUrl: new URL(root.dataset.apiBase!, window.location.href).toString(), paymentPage: true });
  type EvmProvider = Extract<FoundWallet, { kind: 'evm' }>['provider'];
  let chosen: { option: PaymentOption; signers: WalletSigners; provider: EvmProvider | null; fields: { id: string; type: string }[] } | null = null;
  let busy = false;
  /** Final: late wallet announcements no longer bring buttons back. */
  let done = false;

  root.hidden = false;
  const say = (text: string, tone: Tone = 'info') => {
    el('bw-message').textContent = text;
    el('bw-message').dataset.tone = tone;
    root.dataset.state = tone === 'bad' ? 'error' : root.dataset.state;
  };
  const setState = (state: string) => (root.dataset.state = state);

  function showWallets(wallets: FoundWallet[]): void {
    const list = el('bw-wallets');
    const usable = wallets.filter((w) => chains.some((c) => c.startsWith(w.kind === 'evm' ? 'eip155:' : 'solana:')));
    list.replaceChildren(
      ...usable.map((w) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.walletId = w.id;
        if (w.icon) button.append(Object.assign(document.createElement('img'), { src: w.icon, alt: '' }));
        button.append(`Pay with ${w.name}`);
        button.addEventListener('click', () => void connect(w));
        return button;
      }),
    );
    el('bw-intro').textContent = usable.length
      ? 'Choose the wallet to pay with. Nothing is signed until you press Pay.'
      : 'No browser wallet that can pay this payment was found. Scan the QR code with your phone’s wallet, or open this page in a wallet’s browser.';
    if (!chosen) setState(usable.length ? 'wallets' : 'none');
  }

  async function connect(w: FoundWallet): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      say(`Connecting to ${w.name}…`);
      const { accounts, signers, provider } = w.kind === 'evm' ? await connectEvm(w.provider) : await connectSolana(w);
      const offer = await client.getOptions(paymentId, { accounts });
      const option = bestOption(offer.options.filter((o) => accounts.includes(o.account)));
      if (!option) throw new Error(`${w.name} has no account on a network this merchant accepts (${chains.map((c) => networks[c] ?? c).join(', ')}).`);
      await review(option, signers, provider);
      say('');
      setState('review');
    } catch (error) {
      say(outcomeOf(error).text, 'bad');
    } finally {
      busy = false;
    }
  }

  async function connectEvm(provider: EvmProvider) {
    const addresses = await evmAccounts(provider);
    const evmChains = chains.filter((c) => c.startsWith('eip155:'));
    const accounts = evmChains.flatMap((c) => addresses.map((a) => `${c}:${a}`));
    const signer = eip1193Signer(provider, { chainIds: evmChains, addableChains: addableByRef });
    return { accounts, signers: { evm: signer }, provider };
  }

  async function connectSolana(w: Extract<FoundWallet, { kind: 'solana' }>) {
    const account = await solanaConnect(w.wallet);
    const accounts = chains.filter((c) => c.startsWith('solana:')).map((c) => `${c}:${account.address}`);
    // The sandbox's (and any local) cluster has no standard name: wallets know it as localnet.
    return { accounts, signers: { solana: walletStandardSolanaSigner(w.wallet, account, { otherChain: 'solana:localnet' }) }, provider: null };
  }

  async function review(option: PaymentOption, signers: WalletSigners, provider: EvmProvider | null): Promise<void> {
    const plain = option.actions.flatMap((a) => (a.type === 'walletRpc' ? [a] : []));
    const chain = chainOfAccount(option.account);
    el('bw-amount').textContent = tokenAmountText(option);
    el('bw-network').textContent = networks[chain] ?? chain;
    el('bw-recipient').textContent = recipientOf(plain) ?? `${document.querySelector('h1')?.textContent ?? 'the merchant'} (their own wallet)`;
    el('bw-account').textContent = option.account.split(':')[2] ?? option.account;
    el('bw-steps').textContent = option.actions.length === plain.length ? plain.map(stepText).join('; then ') : 'sign the transfer (the network fee is paid for you)';
    const fields = option.collectData?.fields ?? [];
    el('bw-fields').replaceChildren(...fields.map(fieldInput));
    chosen = { option, signers, provider, fields };
    el('bw-review').hidden = false;
  }

  el('bw-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void pay();
  });

  async function pay(): Promise<void> {
    if (busy || !chosen) return;
    const { option, signers, provider, fields } = chosen;
    const values: Record<string, CollectedValue> = {};
    for (const f of fields) {
      const input = document.getElementById(`bw-field-${f.id}`) as HTMLInputElement;
      values[f.id] = f.type === 'checkbox' ? input.checked : input.value.trim();
    }
    const issues = option.collectData ? validateCollectedData(option.collectData.schema, values) : [];
    if (issues.length) return say(`Please check the form: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, 'bad');
    busy = true;
    (el('bw-pay') as HTMLButtonElement).disabled = true;
    try {
      setState('signing');
      const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(paymentId, { optionId: option.id, data: build.build.data }));
      if (provider) await prepareEvm(provider, option);
      const results = await executeActions(actions, {
        ...signers,
        onAction: (action, index) => say(`Approve in your wallet: step ${index + 1} of ${actions.length}, ${stepText(action)}.`),
      });
      const collectedData = fields.length ? toCollectedData(values) : undefined;
      savePending(paymentId, { optionId: option.id, results });
      await confirm(option.id, results, collectedData);
    } catch (error) {
      const outcome = outcomeOf(error);
      say(outcome.text, 'bad');
      if (outcome.refresh) chosen = null;
      if (outcome.refresh) el('bw-review').hidden = true;
    } finally {
      busy = false;
      (el('bw-pay') as HTMLButtonElement).disabled = false;
    }
  }

  /** Before anything is signed: the wallet on the option's chain, and enough of the token there. */
  async function prepareEvm(provider: EvmProvider, option: PaymentOption): Promise<void> {
    const chain = chainOfAccount(option.account);
    const ref = evmChainReference(chain);
    try {
      await ensureEvmChain(provider, chain, addableByRef);
    } catch (error) {
      if (outcomeOf(error).text.startsWith('You declined')) throw error;
      throw new WrongChainError(`Your wallet could not switch to ${networks[chain] ?? chain} (chain ${ref}). Add that network in your wallet, switch to it and try again.`);
    }
    const balance = await evmBalance(provider, option);
    if (balance !== null && balance < BigInt(option.amount.value)) {
      throw new InsufficientBalanceError(`Your account holds less than ${tokenAmountText(option)} on ${networks[chain] ?? chain}. Nothing was signed.`);
    }
  }

  async function confirm(optionId: string, results: ActionResult[], collectedData?: ReturnType<typeof toCollectedData>): Promise<void> {
    say('Sent. Waiting for the payment service to confirm…');
    setState('confirming');
    let status: PaymentStatusResult = await client.confirm(paymentId, { optionId, results, ...(collectedData ? { collectedData } : {}) }, { maxPollMs: 10_000 });
    clearPending(paymentId);
    while (!status.isFinal) status = await client.getStatus(paymentId, { maxPollMs: 10_000 });
    finish(status);
  }

  function finish(status: PaymentStatusResult): void {
    done = true;
    el('bw-intro').hidden = true;
    el('bw-review').hidden = true;
    el('bw-wallets').replaceChildren();
    setState(status.status);
    if (status.status === 'succeeded') say('Paid. The merchant has received the payment.', 'ok');
    else say(`The payment ended ${status.status}${status.failureCode ? ` (${status.failureCode})` : ''}.`, 'bad');
  }

  void discoverWallets((wallets) => {
    if (!chosen && !done) showWallets(wallets);
  }).then((wallets) => {
    if (!chosen && !done) showWallets(wallets);
  });

  // A transfer sent before the tab closed: confirm it again (idempotent) so it is never lost.
  const pending = loadPending(paymentId);
  if (pending) {
    busy = true;
    confirm(pending.optionId, pending.results)
      .catch((error: unknown) => {
        say(outcomeOf(error).text, 'bad');
        clearPending(paymentId);
      })
      .finally(() => (busy = false));
  }
}

function fieldInput(f: { id: string; name: string; required: boolean; type: string }): HTMLElement {
  const wrap = document.createElement('div');
  const label = Object.assign(document.createElement('label'), { htmlFor: `bw-field-${f.id}`, textContent: `${f.name}${f.required ? '' : ' (optional)'}` });
  const input = Object.assign(document.createElement('input'), { id: `bw-field-${f.id}`, name: f.id, type: f.type, required: f.required });
  if (f.type === 'checkbox') wrap.append(input, label);
  else wrap.append(label, input);
  return wrap;
}
