import type { AssetRegistry } from '../assets.ts';
import { currencyExponent } from '../currencies.ts';
import type { MerchantRecord, PaymentRecord, PaymentStatus } from '../../ports/storage.ts';
import { isFinal, pollInMs } from './state-machine.ts';

/**
 * Payment records → the wire shapes of the API and of webhook snapshots, in one place so the
 * status endpoint, the details record, lists and events always agree.
 */
const displayNames = new Intl.DisplayNames(['en'], { type: 'currency' });
const currencyNames = new Map<string, string>();
const currencyName = (code: string) => {
  let name = currencyNames.get(code);
  if (name === undefined) currencyNames.set(code, (name = displayNames.of(code) ?? code));
  return name;
};

/** A payment past its expiry that nothing has moved yet reads as expired, before the job runs. */
export function effectiveStatus(p: PaymentRecord, now: number): PaymentStatus {
  return p.status === 'requires_action' && p.expiresAt.getTime() <= now ? 'expired' : p.status;
}

export function fiatAmount(p: PaymentRecord) {
  return {
    unit: `iso4217/${p.fiatCurrency}`,
    value: p.fiatValue.toString(),
    display: { assetSymbol: p.fiatCurrency, assetName: currencyName(p.fiatCurrency), decimals: currencyExponent(p.fiatCurrency) ?? 2 },
  };
}

export function tokenAmount(p: PaymentRecord, assets: AssetRegistry) {
  if (!p.asset || p.tokenValue === null) return undefined;
  const a = assets.get(p.asset);
  return {
    unit: `caip19/${p.asset}`,
    value: p.tokenValue.toString(),
    display: {
      assetSymbol: a?.symbol ?? p.asset,
      assetName: a?.name ?? p.asset,
      decimals: a?.decimals ?? 0,
      ...(a?.iconUrl ? { iconUrl: a.iconUrl } : {}),
      ...(a?.networkName ? { networkName: a.networkName } : {}),
      ...(a?.networkIconUrl ? { networkIconUrl: a.networkIconUrl } : {}),
    },
  };
}

function info(p: PaymentRecord, assets: AssetRegistry) {
  const amount = tokenAmount(p, assets);
  return p.status === 'succeeded' && p.txId && amount ? { info: { txId: p.txId, optionAmount: amount } } : {};
}

/** The status answer: what a poller needs and nothing more. */
export function statusView(p: PaymentRecord, assets: AssetRegistry, now: number) {
  const status = effectiveStatus(p, now);
  return {
    status,
    isFinal: isFinal(status),
    pollInMs: pollInMs(status),
    ...(status === p.status ? info(p, assets) : {}),
    ...(status === 'failed' && p.failureCode ? { failureCode: p.failureCode as 'declined_user' | 'transfer_failed' } : {}),
  };
}

/** The full record (details, lists, webhook snapshots). */
export function paymentView(p: PaymentRecord, merchant: Pick<MerchantRecord, 'id' | 'name' | 'iconUrl'> | undefined, assets: AssetRegistry, now: number) {
  const status = effectiveStatus(p, now);
  const token = tokenAmount(p, assets);
  const settled = p.status === 'succeeded';
  return {
    paymentId: p.id,
    merchant: { id: p.merchantId, name: merchant?.name ?? '', iconUrl: merchant?.iconUrl ?? null },
    referenceId: p.referenceId,
    status,
    isFinal: isFinal(status),
    pollInMs: pollInMs(status),
    fiatAmount: fiatAmount(p),
    ...(token ? { tokenAmount: token } : {}),
    ...(p.buyerAccount ? { buyer: { accountCaip10: p.buyerAccount } } : {}),
    ...(p.network ? { transaction: { networkId: p.network, ...(p.txId ? { hash: p.txId } : {}) } } : {}),
    settlement: settled && token && p.txId ? { settled: true, amount: token, txHash: p.txId } : { settled: false },
    ...info(p, assets),
    ...(p.status === 'failed' && p.failureCode ? { failureCode: p.failureCode as 'declined_user' | 'transfer_failed' } : {}),
    refund: { refunded: p.refundedAt !== null, refundedAt: p.refundedAt?.toISOString() ?? null },
    ...(p.cancelledReason ? { cancelledReason: p.cancelledReason } : {}),
    ...(p.cancelledAt ? { cancelledAt: p.cancelledAt.toISOString() } : {}),
    createdAt: p.createdAt.toISOString(),
    lastUpdatedAt: p.updatedAt.toISOString(),
    ...(settled && p.succeededAt ? { settledAt: p.succeededAt.toISOString() } : {}),
    expiresAt: Math.floor(p.expiresAt.getTime() / 1000),
    stateVersion: p.stateVersion,
  };
}

/** A webhook `data` snapshot: the full record, with the version that orders events. */
export function eventSnapshot(p: PaymentRecord, merchant: Pick<MerchantRecord, 'id' | 'name' | 'iconUrl'> | undefined, assets: AssetRegistry) {
  return { ...paymentView(p, merchant, assets, p.updatedAt.getTime()), payment_state_version: p.stateVersion };
}
