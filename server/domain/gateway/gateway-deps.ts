import type { PaymentDeps } from '../payments/transition.ts';
import type { ChainRegistry } from '../../ports/chains.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { PricePort } from '../prices.ts';
import type { FeeBudgetPolicy } from '../fees/fee-budget.ts';

/** What the wallet-facing operations need besides payments. */
export interface GatewayDeps extends PaymentDeps {
  chains: ChainRegistry;
  prices: PricePort;
  /** Host of payment links, for resolving a link passed as the payment id. */
  payHost: string;
  /** How long a quote holds, seconds (never past the payment's own expiry). */
  quoteTtlS: number;
  /** Live unchosen quotes one payment keeps (LIVE_QUOTES_PER_PAYMENT); the oldest beyond it are evicted. Absent: DEFAULT_LIVE_QUOTES_PER_PAYMENT. */
  liveQuotesPerPayment?: number;
  /** One chain's share of an options call (OPTIONS_CHAIN_BOUND_MS); a slower or failing chain is left out. */
  optionsChainBoundMs?: number;
  /** A chain left out of an options call, and why (logged and counted by the composition root). */
  onChainDropped?: (caip2: string, why: string) => void;
  /** Each partner's fee budget per chain; absent: unbounded (tests that do not exercise it). */
  feeBudget?: FeeBudgetPolicy;
  /** Options calls per payment (OPTIONS_PER_PAYMENT_LIMIT), across processes with Redis; absent: not limited. */
  optionsPerPayment?: RateLimiter;
}
