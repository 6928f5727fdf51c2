import type { Clock } from '../ports/clock.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { KeyRevocations } from '../auth/revocations.ts';
import type { SessionPolicy } from '../domain/users/sessions.ts';
import type { AssetRegistry } from '../domain/assets.ts';
import type { MetricsPort } from '../ports/metrics.ts';
import type { EndpointUrlPolicy } from '../domain/webhooks/url-policy.ts';
import type { FeeBudgetPolicy } from '../domain/fees/fee-budget.ts';

/** What the dashboard is built from (server/app.ts mounts it when these are given). */
export interface DashboardOptions {
  /**
   * Sign-in attempts counted per account (lower-cased email) and per client address: either one
   * over its allowance answers 429 before any password is checked.
   */
  signInLimiters: { perAccount: RateLimiter; perAddress: RateLimiter };
  /** Idle and absolute session lifetimes; default 30 minutes and 12 hours. */
  sessionPolicy?: SessionPolicy;
  /** How long an invited user's temporary password lasts (TEMPORARY_PASSWORD_HOURS), ms; default 72 hours. */
  temporaryPasswordMs?: number;
}

export interface DashboardDeps extends DashboardOptions {
  storage: StoragePort;
  clock: Clock;
  /** `production` makes live partner keys (`sk_live_…`), the sandbox test keys, as the key tool does. */
  mode: 'sandbox' | 'production';
  /** How long the API may still accept a revoked key (its key cache), ms: said on the keys page. */
  keyTrustMs: number;
  /** Told of each revocation, so this process's API refuses the key at once. */
  keyRevocations: KeyRevocations;
  /** The API's merchant, settlement and payment use cases run with these, as its handlers do. */
  assets: AssetRegistry;
  checkLogo?: (url: string) => Promise<string[]>;
  metrics?: MetricsPort;
  /** What a webhook endpoint URL must satisfy: the API's own policy, so both refuse the same URLs. */
  webhookEndpoints: EndpointUrlPolicy;
  /** Called after jobs were written (a refund's, a test event, a redelivery), so the relay hands them on at once. */
  onJobsWritten?: () => void;
  /** Test events per endpoint and redeliveries per partner: the API's limits (see redeliver.ts). */
  webhookRequestLimits?: { testEvents: RateLimiter; redeliveries: RateLimiter };
  /** EXPLORER_TX_URLS: CAIP-2 chain id → explorer URL with `{txId}`; a payment's transaction links there. */
  explorerTxUrls?: Readonly<Record<string, string>>;
  /** The fee budgets in force: the settings page shows the partner's spending against them. */
  feeBudget?: FeeBudgetPolicy;
}
