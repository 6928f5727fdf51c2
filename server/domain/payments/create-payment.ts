import { validationError, type ValidationIssue } from '../../errors.ts';
import { currencyExponent } from '../currencies.ts';
import { newId } from '../ids.ts';
import type { PaymentRecord } from '../../ports/storage.ts';

export interface PaymentTimeLimits {
  /** When the request gives no expiry. */
  defaultTtlS: number;
  /** The furthest an expiry may be. */
  maxTtlS: number;
}

export interface CreatePaymentInput {
  partnerId: string;
  merchantId: string;
  amount: { unit: string; value: string };
  expiresAt?: number | null;
  referenceId: string;
  checkout?: { successUrl: string; errorUrl: string } | null;
}

/**
 * A new payment from a validated request, or a 400 naming each field that breaks a rule the
 * schema cannot express (supported currency, expiry window).
 */
export function newPayment(input: CreatePaymentInput, now: number, limits: PaymentTimeLimits): PaymentRecord {
  const issues: ValidationIssue[] = [];
  const currency = input.amount.unit.slice('iso4217/'.length);
  if (currencyExponent(currency) === undefined) issues.push({ field: 'amount.unit', message: `currency ${currency} is not supported` });
  const value = BigInt(input.amount.value);
  if (value <= 0n) issues.push({ field: 'amount.value', message: 'must be a positive integer in minor units' });
  const nowS = Math.floor(now / 1000);
  let expiresAtS = nowS + limits.defaultTtlS;
  if (input.expiresAt !== undefined && input.expiresAt !== null) {
    if (input.expiresAt <= nowS) issues.push({ field: 'expiresAt', message: 'must be in the future (Unix seconds)' });
    else if (input.expiresAt > nowS + limits.maxTtlS) issues.push({ field: 'expiresAt', message: `must be at most ${limits.maxTtlS} seconds from now` });
    expiresAtS = input.expiresAt;
  }
  if (issues.length) throw validationError(issues);
  const at = new Date(now);
  return {
    id: newId('payment', now),
    partnerId: input.partnerId,
    merchantId: input.merchantId,
    referenceId: input.referenceId,
    fiatCurrency: currency,
    fiatValue: value,
    status: 'requires_action',
    stateVersion: 1,
    expiresAt: new Date(expiresAtS * 1000),
    createdAt: at,
    updatedAt: at,
    checkout: input.checkout ?? null,
    failureCode: null,
    cancelledReason: null,
    cancelledAt: null,
    refundedAt: null,
    optionId: null,
    buyerAccount: null,
    asset: null,
    tokenValue: null,
    network: null,
    txId: null,
    succeededAt: null,
  };
}
