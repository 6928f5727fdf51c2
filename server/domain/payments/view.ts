import type { AssetRegistry } from '../assets.ts';
import { currencyExponent } from '../currencies.ts';
import type { MerchantRecord } from '../merchants/records.ts';
import type { PaymentRecord } from './records.ts';
import { isFinal, pollInMs, type PaymentStatus } from './state-machine.ts';
import { listStatus, publicFailureCode, showsExtraPayments, showsFinality } from './wire-versions.ts';
import { parseChainId } from '../caip.ts';

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

/** The fiat price in the wire amount shape; undefined for a payment priced in a token. */
export function fiatAmount(p: PaymentRecord) {
  if (p.price.kind !== 'fiat') return undefined;
  const { currency, value } = p.price;
  return {
    unit: `iso4217/${currency}`,
    value: value.toString(),
    display: { assetSymbol: currency, assetName: currencyName(currency), decimals: currencyExponent(currency) ?? 2 },
  };
}

/** `value` base units of a CAIP-19 asset in the wire amount shape, with what the registry knows of it. */
export function assetAmount(asset: string, value: bigint, assets: AssetRegistry) {
  const a = assets.get(asset);
  return {
    unit: `caip19/${asset}`,
    value: value.toString(),
    display: {
      assetSymbol: a?.symbol ?? asset,
      assetName: a?.name ?? asset,
      decimals: a?.decimals ?? 0,
      ...(a?.iconUrl ? { iconUrl: a.iconUrl } : {}),
      ...(a?.networkName ? { networkName: a.networkName } : {}),
      ...(a?.networkIconUrl ? { networkIconUrl: a.networkIconUrl } : {}),
    },
  };
}

/**
 * What the buyer pays in a token: the option confirmed, once there is one; before that, for a
 * payment priced in a token, the price itself (it is owed exactly, in that token only).
 */
export function tokenAmount(p: PaymentRecord, assets: AssetRegistry) {
  if (p.asset && p.tokenValue !== null) return assetAmount(p.asset, p.tokenValue, assets);
  return p.price.kind === 'token' ? assetAmount(p.price.asset, p.price.value, assets) : undefined;
}

/** The price as the partner gave it, fiat or token, in the wire amount shape. */
export function priceAmount(p: PaymentRecord, assets: AssetRegistry) {
  return p.price.kind === 'fiat' ? fiatAmount(p)! : assetAmount(p.price.asset, p.price.value, assets);
}

function info(p: PaymentRecord, assets: AssetRegistry) {
  // What was paid: the confirmed option, never the price standing in for it.
  const paid = p.asset && p.tokenValue !== null ? assetAmount(p.asset, p.tokenValue, assets) : undefined;
  return p.status === 'succeeded' && p.txId && paid ? { info: { txId: p.txId, optionAmount: paid } } : {};
}

/** A succeeded payment's finality, where it is followed; nothing before success or for a payment never followed. */
function finality(p: PaymentRecord) {
  return p.status === 'succeeded' && p.finality ? { finality: p.finality } : {};
}

/** Transactions that paid the merchant again after the payment succeeded (paid twice), in the wire shape. */
function extraPayments(p: PaymentRecord, assets: AssetRegistry) {
  if (!p.extraPayments?.length) return {};
  return {
    extraPayments: p.extraPayments.map((e) => ({ txId: e.txId, network: e.network, amount: assetAmount(e.asset, e.value, assets), foundAt: e.foundAt.toISOString() })),
  };
}

/** `finality` where `version` declares it. */
const finalityUnder = (p: PaymentRecord, version: string) => (showsFinality(version) ? finality(p) : {});

/** The status answer under `version`: what a poller needs and nothing more. */
export function statusView(p: PaymentRecord, assets: AssetRegistry, now: number, version: string) {
  const status = effectiveStatus(p, now);
  const failureCode = status === 'failed' ? publicFailureCode(p.failureCode, version) : undefined;
  return {
    status,
    isFinal: isFinal(status),
    pollInMs: pollInMs(status),
    ...(status === p.status ? info(p, assets) : {}),
    ...(failureCode ? { failureCode } : {}),
    ...finalityUnder(p, version),
  };
}

/** Who paid, for partners: the account, and the wallet app when a wallet's key confirmed it. */
function buyer(p: PaymentRecord) {
  if (!p.buyerAccount) return {};
  return {
    buyer: {
      accountCaip10: p.buyerAccount,
      ...(p.buyerProviderName ? { accountProviderName: p.buyerProviderName } : {}),
      ...(p.buyerProviderIcon ? { accountProviderIcon: p.buyerProviderIcon } : {}),
    },
  };
}

/** Who paid, for the wallet-facing summary: only with the wallet app's name, which it requires. */
export function gatewayBuyer(p: PaymentRecord) {
  if (!p.buyerAccount || !p.buyerProviderName) return {};
  return { buyer: { accountCaip10: p.buyerAccount, accountProviderName: p.buyerProviderName, accountProviderIcon: p.buyerProviderIcon ?? null } };
}

/** `eip155:8453` → `8453`: the reference's `networkId` is the chain's id within its namespace. */
const chainReference = (caip2: string) => parseChainId(caip2)?.reference ?? caip2;

type MerchantShown = Pick<MerchantRecord, 'id' | 'name' | 'iconUrl'> | undefined;

/** The payment's own transfer, once it is confirmed: it is what settles the merchant (funds go straight to them). */
function settlingTransfer(p: PaymentRecord, assets: AssetRegistry) {
  const amount = tokenAmount(p, assets);
  return p.status === 'succeeded' && amount && p.txId ? { txId: p.txId, amount } : null;
}

/** What every full view of a payment shares: details, list items and webhook snapshots. */
function recordFields(p: PaymentRecord, merchant: MerchantShown, assets: AssetRegistry, now: number) {
  const status = effectiveStatus(p, now);
  const fiat = fiatAmount(p);
  const token = tokenAmount(p, assets);
  return {
    paymentId: p.id,
    merchant: { id: p.merchantId, name: merchant?.name ?? '', iconUrl: merchant?.iconUrl ?? null },
    referenceId: p.referenceId,
    status,
    isFinal: isFinal(status),
    pollInMs: pollInMs(status),
    // Absent for a payment priced in a token: there is no fiat price, and none is invented.
    ...(fiat ? { fiatAmount: fiat } : {}),
    ...(token ? { tokenAmount: token } : {}),
    ...buyer(p),
    ...info(p, assets),
    refund: { refunded: p.refundedAt !== null, refundedAt: p.refundedAt?.toISOString() ?? null },
    ...(p.cancelledReason ? { cancelledReason: p.cancelledReason } : {}),
    ...(p.cancelledAt ? { cancelledAt: p.cancelledAt.toISOString() } : {}),
    createdAt: p.createdAt.toISOString(),
    lastUpdatedAt: p.updatedAt.toISOString(),
    ...(p.status === 'succeeded' && p.succeededAt ? { settledAt: p.succeededAt.toISOString() } : {}),
    expiresAt: Math.floor(p.expiresAt.getTime() / 1000),
    stateVersion: p.stateVersion,
  };
}

/** The list and webhook form of settlement: whether it is settled, and by which transfer. */
function settledFlag(p: PaymentRecord, assets: AssetRegistry) {
  const transfer = settlingTransfer(p, assets);
  return transfer ? { settled: true, amount: transfer.amount, txHash: transfer.txId } : { settled: false };
}

/** What details and list items share, under `version`. */
function paymentFields(p: PaymentRecord, merchant: MerchantShown, assets: AssetRegistry, now: number, version: string) {
  const failureCode = p.status === 'failed' ? publicFailureCode(p.failureCode, version) : undefined;
  return {
    ...recordFields(p, merchant, assets, now),
    isTerminal: isFinal(effectiveStatus(p, now)),
    ...(p.network ? { transaction: { networkId: chainReference(p.network), network: p.network, ...(p.txId ? { hash: p.txId } : {}) } } : {}),
    ...(failureCode ? { failureCode } : {}),
    ...finalityUnder(p, version),
  };
}

/** A payment's details (GET /v1/payments/{id}): `settlement` is the settling transfer, or null before it. */
export function paymentDetailsView(p: PaymentRecord, merchant: MerchantShown, assets: AssetRegistry, now: number, version: string) {
  const transfer = settlingTransfer(p, assets);
  return {
    ...paymentFields(p, merchant, assets, now, version),
    settlement: transfer ? { successful: transfer } : null,
    ...(showsExtraPayments(version) ? extraPayments(p, assets) : {}),
  };
}

/** A payment in a list under `version`. */
export function paymentListItemView(p: PaymentRecord, merchant: MerchantShown, assets: AssetRegistry, now: number, version: string) {
  const fields = paymentFields(p, merchant, assets, now, version);
  return { ...fields, status: listStatus(fields.status, version), settlement: settledFlag(p, assets) };
}

/**
 * The full record as webhook snapshots carry it (the shape events had before versions shaped the
 * API's answers): the CAIP-2 `networkId` and every failure code. Fields a version added are
 * stored here and left out of deliveries to older versions (snapshotFor in wire-versions.ts).
 */
function paymentView(p: PaymentRecord, merchant: MerchantShown, assets: AssetRegistry, now: number) {
  return {
    ...recordFields(p, merchant, assets, now),
    ...(p.network ? { transaction: { networkId: p.network, ...(p.txId ? { hash: p.txId } : {}) } } : {}),
    settlement: settledFlag(p, assets),
    ...(p.status === 'failed' && p.failureCode ? { failureCode: p.failureCode } : {}),
    // Stored for every version; left out of deliveries to versions that do not declare them (wire-versions.ts).
    ...finality(p),
    ...extraPayments(p, assets),
  };
}

/** A webhook `data` snapshot: the full record, with the version that orders events. */
export function eventSnapshot(p: PaymentRecord, merchant: MerchantShown, assets: AssetRegistry) {
  return { ...paymentView(p, merchant, assets, p.updatedAt.getTime()), payment_state_version: p.stateVersion };
}
