import type { Amount, PaymentAction, PaymentOption } from '../../clients/wallet/src/index.ts';

/** Base units → a decimal string (`10500000`, 6 → `10.5`); exact, no floating point. */
export function fromBaseUnits(value: string, decimals: number): string {
  const digits = value.replace(/^0+(?=\d)/, '');
  if (decimals === 0) return digits;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals);
  const fraction = padded.slice(-decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** A fiat currency's minor-unit digits (USD 2, JPY 0), from the runtime's ISO 4217 data. */
function fiatDecimals(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** `10.50 USD`, `10.5 USDC on Sandbox EVM`; falls back to the raw unit when nothing says more. */
export function formatAmount(amount: Amount): string {
  if (amount.unit.startsWith('iso4217/')) {
    const currency = amount.unit.slice('iso4217/'.length);
    const decimals = fiatDecimals(currency);
    const text = fromBaseUnits(amount.value, decimals);
    const [whole, fraction = ''] = text.split('.');
    return `${decimals === 0 ? whole : `${whole}.${fraction.padEnd(decimals, '0')}`} ${currency}`;
  }
  const display = amount.display;
  if (display === undefined) return `${amount.value} ${amount.unit}`;
  const network = display.networkName ? ` on ${display.networkName}` : '';
  return `${fromBaseUnits(amount.value, display.decimals)} ${display.assetSymbol}${network}`;
}

/** The CAIP-19 id inside an option's `caip19/<asset>` unit. */
export function optionAsset(option: PaymentOption): string {
  return option.amount.unit.startsWith('caip19/') ? option.amount.unit.slice('caip19/'.length) : option.amount.unit;
}

/** `eth_sendTransaction` for a wallet call, `build` for one the gateway resolves at fetch. */
export function actionMethod(action: PaymentAction): string {
  return action.type === 'walletRpc' ? action.walletRpc.method : 'build';
}

/** Long hex or base64 results cut to something a terminal line can hold. */
export function shorten(value: string, keep = 18): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-8)}`;
}
