import { newId } from '../ids.ts';
import { parseAccountId, formatChainId } from '../caip.ts';
import { tokenAmount } from '../payments/view.ts';
import type { CryptoSettlementRecord, MerchantRecord, PaymentRecord, QuoteRecord } from '../../ports/storage.ts';
import type { WireAction } from '../../ports/chains.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { collectDataOf, type CollectDeps } from '../collect-data/collect.ts';
import { needsCollection } from '../collect-data/schema.ts';

export interface BuiltOption {
  id: string;
  account: string;
  amount: NonNullable<ReturnType<typeof tokenAmount>>;
  etaS: number;
  expiresAt: number;
  actions: WireAction[];
  collectData: ReturnType<typeof collectDataOf> | null;
}

/**
 * One option per (buyer account × merchant settlement asset on the account's chain), priced
 * from the payment's fiat amount and quoted until a deadline. Each quote is stored with what its
 * confirmation must match.
 */
export async function buildOptions(
  deps: GatewayDeps & { collect?: CollectDeps },
  payment: PaymentRecord,
  seller: { merchant: MerchantRecord | null; settlements: CryptoSettlementRecord[] },
  accounts: string[],
): Promise<{ options: BuiltOption[]; reason?: string }> {
  const { merchant, settlements } = seller;
  // Buyer data is asked per the merchant's setting, for every option of the payment alike.
  const collect = deps.collect && needsCollection(merchant?.dataCollection, payment.fiatCurrency, payment.fiatValue) ? deps.collect : null;
  const now = deps.clock.now();
  const deadline = new Date(Math.min(payment.expiresAt.getTime(), now + deps.quoteTtlS * 1000));
  const quotes: QuoteRecord[] = [];
  const options: BuiltOption[] = [];
  const accepted = new Set<string>();
  for (const raw of [...new Set(accounts)]) {
    const account = parseAccountId(raw);
    if (!account) continue;
    const caip2 = formatChainId(account.chain);
    const chain = deps.chains.forChain(caip2);
    if (!chain || !chain.isValidAddress(account.address)) continue;
    for (const s of settlements) {
      const asset = deps.assets.get(s.asset);
      if (!asset || formatChainId(asset.parsed.chain) !== caip2) continue;
      accepted.add(caip2);
      const amount = deps.prices.tokenAmount(payment.fiatCurrency, payment.fiatValue, asset);
      if (amount === null || amount <= 0n) continue;
      const optionId = newId('option', now);
      const req = { paymentId: payment.id, optionId, account: raw, asset, amount, destination: s.destination, deadline, quotedAt: new Date(now) };
      const prepared = await chain.prepareOption(req);
      quotes.push({ optionId, paymentId: payment.id, account: raw, asset: asset.id, amount, destination: s.destination, deadline, state: prepared.state, createdAt: new Date(now), collectData: collect !== null });
      options.push({
        id: optionId,
        account: raw,
        amount: tokenAmount({ ...payment, asset: asset.id, tokenValue: amount }, deps.assets)!,
        etaS: prepared.etaS,
        expiresAt: Math.floor(deadline.getTime() / 1000),
        actions: prepared.actions,
        collectData: collect ? collectDataOf(collect, { paymentId: payment.id, optionId, deadline }) : null,
      });
    }
  }
  await deps.storage.payments.saveQuotes(quotes);
  if (options.length) return { options };
  const chains = [...new Set(settlements.map((s) => s.asset.split('/')[0]))].join(', ');
  return { options, reason: accepted.size ? `no price for ${payment.fiatCurrency} in the merchant's assets` : `no account on a chain this merchant accepts (${chains})` };
}
