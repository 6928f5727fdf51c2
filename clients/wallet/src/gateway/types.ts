import type { ActionResult, PaymentAction } from './actions.ts';

export type PaymentStatus = 'requires_action' | 'processing' | 'succeeded' | 'failed' | 'expired' | 'cancelled';

/** Display hints for an amount (token symbol, decimals, network). */
export interface AmountDisplay {
  assetSymbol: string;
  assetName: string;
  decimals: number;
  iconUrl?: string | null;
  networkName?: string | null;
  networkIconUrl?: string | null;
}

/** `unit` is `iso4217/<code>` or `caip19/<asset>`; `value` is in the unit's minor units. */
export interface Amount {
  unit: string;
  value: string;
  display?: AmountDisplay;
}

/** What the buyer is shown before choosing how to pay. */
export interface PaymentSummary {
  status: PaymentStatus;
  amount: Amount;
  expiresAt: number;
  merchant: { name: string; iconUrl?: string | null };
  buyer?: { accountCaip10: string; accountProviderName: string; accountProviderIcon?: string | null } | null;
}

/** One field of the data-collection form as a flat list (for wallets that render their own form). */
export interface CollectDataField {
  id: string;
  name: string;
  required: boolean;
  type: 'text' | 'date' | 'checkbox';
}

/** Where and what to collect about the buyer before confirming an option. */
export interface CollectData {
  url: string;
  schema: unknown;
  /** The form's fields as a flat list; `schema` is the authority (older services omit this). */
  fields: CollectDataField[];
}

/** One way to pay, with its actions already in the wallet-code shape. */
export interface PaymentOption {
  id: string;
  account: string;
  amount: Amount;
  etaS: number;
  expiresAt?: number | null;
  actions: PaymentAction[];
  collectData?: CollectData | null;
}

export interface PaymentOptions {
  options: PaymentOption[];
  info: PaymentSummary | null;
  collectData: CollectData | null;
}

/** Status as answered by status and confirm calls; `isFinal` is the authority for stopping. */
export interface PaymentStatusResult {
  status: PaymentStatus;
  isFinal: boolean;
  pollInMs?: number | null;
  info?: { txId: string; optionAmount: Amount } | null;
  failureCode?: string | null;
}

export interface CancelResult {
  paymentId: string;
  status: PaymentStatus;
  cancelledReason: string;
  cancelledAt: string;
}

/** Buyer data sent on confirm when the wallet runs its own form (wire shape). */
export interface CollectedData {
  fields: { id: string; value: string }[];
}

export interface ConfirmRequest {
  optionId: string;
  results: ActionResult[];
  collectedData?: CollectedData;
}
