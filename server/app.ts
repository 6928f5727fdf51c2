import { randomBytes } from 'node:crypto';
import express, { Router, type Express } from 'express';
import type { Logger } from 'pino';
import type { AssetRegistry } from './domain/assets.ts';
import type { Clock } from './ports/clock.ts';
import type { StoragePort } from './ports/storage/index.ts';
import type { PaymentChangesPort } from './ports/payment-changes.ts';
import { authenticate } from './http/auth.ts';
import { contextOf } from './http/context.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { claimIdempotencyKey, requireIdempotencyKey } from './http/idempotency.ts';
import { createRouteTable, listOperations, loadOpenApiDocs, type OpenApiDoc } from './http/openapi-docs.ts';
import { dispatchOperations, type OperationHandlers } from './http/operations.ts';
import { chain } from './http/chain.ts';
import { rateLimit } from './http/rate-limit.ts';
import type { RateLimiter } from './ports/rate-limiter.ts';
import { requestContext, traceOperation } from './http/request-context.ts';
import { rejectHostileInput } from './http/hostile-input.ts';
import { responseValidator } from './http/validation.ts';
import { compileValidators, validateRequests } from './http/request-validator.ts';
import { securityHeaders } from './http/security-headers.ts';
import { resolveVersion } from './http/versions.ts';
import { AppError } from './errors.ts';
import { merchantHandlers } from './handlers/merchants.ts';
import { settlementHandlers } from './handlers/settlements.ts';
import { paymentHandlers } from './handlers/payments.ts';
import { paymentListHandlers } from './handlers/payment-lists.ts';
import { refundHandlers } from './handlers/refunds.ts';
import { gatewayHandlers } from './handlers/gateway.ts';
import { webhookHandlers } from './handlers/webhooks.ts';
import type { EndpointUrlPolicy } from './domain/webhooks/url-policy.ts';
import type { PaymentTimeLimits } from './domain/payments/create-payment.ts';
import { createChainRegistry, type ChainRegistry } from './ports/chains.ts';
import { createPriceTable, type PricePort } from './domain/prices.ts';
import type { FeeBudgetPolicy } from './domain/fees/fee-budget.ts';
import { pagesRouter } from './pages/index.ts';
import type { WalletChains } from './pages/browser-wallet-section.ts';
import { solanaPayRouter } from './pages/solana-pay.ts';
import { dashboardRouter, type DashboardOptions } from './dashboard/index.ts';
import { createKeyRevocations } from './auth/revocations.ts';
import type { ServiceAccountChecks } from './domain/service-accounts.ts';
import type { MetricsPort } from './ports/metrics.ts';
import { bringsMetricsToken, metricsHandler } from './http/metrics.ts';
import { httpMetrics } from './http/metrics-timing.ts';
import { countedWaiters } from './http/metrics-waiters.ts';
import { createReadiness, readinessHandler, type Readiness } from './http/readiness.ts';

export interface AppDeps {
  storage: StoragePort;
  /** Wakes long-polling confirm and status requests when their payment changes. */
  paymentChanges: PaymentChangesPort;
  clock: Clock;
  logger: Logger;
  assets: AssetRegistry;
  /** Base of buyer payment links: `gatewayUrl` is `{payBaseUrl}/<paymentId>`. */
  payBaseUrl?: string;
  /** Where this service is reached (`PUBLIC_BASE_URL`): the `servers` of the OpenAPI documents it serves. */
  publicBaseUrl?: string;
  paymentTimes?: PaymentTimeLimits;
  /** The chains payments can be made on; none: options are always empty. */
  chains?: ChainRegistry;
  /** The balances of the accounts paying fees, shown in /readyz when `readiness` is absent. */
  serviceAccounts?: ServiceAccountChecks;
  /** /readyz's checks (storage, queue, chain nodes, fee accounts); absent: storage and `serviceAccounts` alone. */
  readiness?: Readiness;
  prices?: PricePort;
  /** How long a quoted option holds, seconds (default 300). */
  quoteTtlS?: number;
  /** Live unchosen quotes one payment keeps (LIVE_QUOTES_PER_PAYMENT); default 200. */
  liveQuotesPerPayment?: number;
  /** One chain's share of an options call (OPTIONS_CHAIN_BOUND_MS), and who hears of a chain left out. */
  optionsChainBoundMs?: number;
  onChainDropped?: (caip2: string, why: string) => void;
  /** Each partner's fee budget per chain (FEE_BUDGETS); absent: unbounded. */
  feeBudget?: FeeBudgetPolicy;
  /** Extra routes served before the API (e.g. the sandbox's faucet and JSON-RPC), never in production. */
  extraRoutes?: express.RequestHandler;
  /** Called when a request committed outbox jobs, so the relay hands them to the queue now. */
  onJobsWritten?: () => void;
  /** Called when a request committed payment events and no job (a create); absent: `onJobsWritten`. */
  onEventsWritten?: () => void;
  /** Checks a merchant logo URL; one message per problem. Absent: any HTTPS URL is accepted. */
  checkLogo?: (url: string) => Promise<string[]>;
  /** Validate responses against the spec too (tests): a handler answering off-spec fails loudly. */
  validateResponses?: boolean;
  /** The OpenAPI documents by version; the generated ones by default. */
  docs?: Map<string, OpenApiDoc>;
  /**
   * What a webhook endpoint URL must satisfy: sandbox loopback allowance, never this service's
   * own port, DNS and the SSRF guard's address classes (server/composition/webhooks.ts builds it).
   */
  webhookEndpoints: EndpointUrlPolicy;
  /** HMAC key of the data-collection page tokens; absent: random per process (tokens die with it). */
  collectDataSecret?: string;
  /** How the payment page's browser wallet adds an EVM chain the wallet does not know (EIP-3085), per CAIP-2. */
  walletChains?: WalletChains;
  /** Requests per authenticated client; absent: no limit. */
  rateLimiter?: RateLimiter;
  /** Gateway options calls per payment (server/domain/gateway/options.ts); absent: not limited. */
  optionsPerPayment?: RateLimiter;
  /** Test events per endpoint and redeliveries per partner, in the API and the dashboard alike (see redeliver.ts); absent: not limited. */
  webhookRequestLimits?: { testEvents: RateLimiter; redeliveries: RateLimiter };
  /**
   * Requests that have not proven a key (none, malformed, unknown to this process, refused),
   * per client address, counted before their key costs a database read; absent: no limit.
   */
  unauthenticatedLimiter?: RateLimiter;
  /** How long a valid key is trusted before it is read again, ms: how late a revocation may bite (default 1000). */
  keyTrustMs?: number;
  /** `production` refuses sandbox partner keys (`sk_test_…`). Default `sandbox`. */
  mode?: 'sandbox' | 'production';
  /** Proxies in front of the service whose X-Forwarded-For is believed (Express `trust proxy` hops). */
  trustProxyHops?: number;
  /** The partner dashboard at /dashboard; absent: not served (404). */
  dashboard?: DashboardOptions;
  /** EXPLORER_TX_URLS: where the dashboard links a payment's transaction, per CAIP-2 chain. */
  explorerTxUrls?: Readonly<Record<string, string>>;
  /** Where requests, payments, jobs and webhooks are counted; served at GET /metrics. Absent: nothing is recorded and there is no /metrics. */
  metrics?: MetricsPort;
  /** METRICS_TOKEN: a scrape of /metrics must send it as a Bearer token; absent, anyone may read /metrics. */
  metricsToken?: string;
}

/** What the gateway's use cases need, built once: the API's handlers and the payment page's wallet routes share it. */
function gatewayDepsOf(deps: AppDeps & { collectDataSecret: string }) {
  const payBaseUrl = deps.payBaseUrl ?? 'http://localhost:3000/pay';
  return {
    ...deps,
    payBaseUrl,
    collect: { secret: deps.collectDataSecret, payBaseUrl },
    paymentTimes: deps.paymentTimes ?? { defaultTtlS: 300, maxTtlS: 30 * 86_400 },
    chains: deps.chains ?? createChainRegistry([]),
    prices: deps.prices ?? createPriceTable(),
    payHost: new URL(payBaseUrl).hostname.toLowerCase(),
    quoteTtlS: deps.quoteTtlS ?? 300,
  };
}

/** Everything handlers need, built from the deps once. */
function buildHandlers(deps: AppDeps, payments: ReturnType<typeof gatewayDepsOf>): OperationHandlers {
  return {
    ...merchantHandlers(deps),
    ...settlementHandlers(deps),
    ...paymentHandlers(payments),
    ...paymentListHandlers(payments),
    ...refundHandlers(payments),
    ...gatewayHandlers(payments),
    ...webhookHandlers(deps),
  };
}

/**
 * The HTTP application. It never listens: `server/main.ts` does, and tests mount it directly.
 * Order: request id → body → route match (404/405) → hostile bytes and depth (400) → auth (401/403) → rate limit (429) → version → required
 * idempotency key → validation against that version's spec → idempotency claim → handler → errors.
 * The API's steps run as one chain (http/chain.ts) on /v1/ before the buyer pages.
 */
export function createApp(given: AppDeps): Express {
  // Long-poll waiters are counted where they subscribe; handlers and pages use the counted port.
  const deps = given.metrics ? { ...given, paymentChanges: countedWaiters(given.paymentChanges, given.metrics) } : given;
  const docs = deps.docs ?? loadOpenApiDocs();
  const opsByVersion = new Map([...docs].map(([version, doc]) => [version, listOperations(doc)]));
  const allOps = [...opsByVersion.values()].flat();
  const match = createRouteTable(allOps);
  // An operation's header parameters in every version: all of them bind an Idempotency-Key.
  const headerParams = new Map<string, string[]>();
  for (const op of allOps) headerParams.set(op.operationId, [...new Set([...(headerParams.get(op.operationId) ?? []), ...op.headerParams])]);
  const validators = new Map([...docs].map(([version, doc]) => [version, compileValidators(doc)]));
  const collectDataSecret = deps.collectDataSecret ?? randomBytes(32).toString('base64url');
  const gateway = gatewayDepsOf({ ...deps, collectDataSecret });
  // A key the dashboard revokes is dropped from this process's key cache at once.
  const keyRevocations = createKeyRevocations();

  const steps: express.RequestHandler[] = [
    express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }),
    (req, res, next) => {
      const found = match(req.method, req.path);
      if (!found.operation)
        return next(found.methodMismatch ? new AppError('method_not_allowed', `${req.method} is not supported on this path`) : new AppError('not_found', 'No such endpoint'));
      const ctx = contextOf(res);
      ctx.operation = found.operation;
      ctx.pathParams = found.params ?? {};
      traceOperation(ctx);
      next();
    },
    // Before anything reads the request (auth's lookup included): bytes no store can take.
    rejectHostileInput(),
    authenticate({
      storage: deps.storage,
      clock: deps.clock,
      refuseTestKeys: deps.mode === 'production',
      ...(deps.unauthenticatedLimiter ? { unauthenticatedLimiter: deps.unauthenticatedLimiter } : {}),
      ...(deps.keyTrustMs !== undefined ? { keyTrustMs: deps.keyTrustMs } : {}),
      revocations: keyRevocations,
    }),
    ...(deps.rateLimiter ? [rateLimit(deps.rateLimiter)] : []),
    resolveVersion(),
    (_req, res, next) => {
      const ctx = contextOf(res);
      // An operation another version has but this one does not.
      if (!validators.get(ctx.apiVersion ?? '')?.has(ctx.operation!.operationId)) return next(new AppError('not_found', 'No such endpoint in this API version'));
      next();
    },
    requireIdempotencyKey(),
  ];
  if (deps.validateResponses) {
    const byVersion = new Map<string, Router>();
    for (const [version, doc] of docs) byVersion.set(version, Router().use(...responseValidator(doc)));
    steps.push((req, res, next) => {
      res.locals.validatesResponses = true; // answers go through res.json, which the validator wraps
      byVersion.get(contextOf(res).apiVersion!)!(req, res, next);
    });
  }
  steps.push(
    validateRequests(validators),
    claimIdempotencyKey({ ...deps, headerParamsOf: (id) => headerParams.get(id) ?? [] }),
    dispatchOperations(allOps, buildHandlers(deps, gateway), deps.storage),
  );
  // The API owns /v1/: its requests enter it from the app's first handler, before /metrics, the probes and the pages.
  const api = chain(steps);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  if (deps.trustProxyHops) app.set('trust proxy', deps.trustProxyHops);
  // Every request's first steps; an API request goes on to the API's chain from the same handler,
  // passing no router layer of the routes below it: each costs a path match and a few closures.
  const front: express.RequestHandler[] = [requestContext(deps.logger), ...(deps.metrics ? [httpMetrics(deps.metrics)] : []), securityHeaders()];
  app.use(chain([...front, (req, res, next) => (req.path.startsWith('/v1/') ? api(req, res, next) : next())]));
  // Outside the API's chain: a scraper holds no API key, and its scrapes must not spend a client's rate limit.
  const production = deps.mode === 'production';
  if (deps.metrics) app.get('/metrics', metricsHandler({ metrics: deps.metrics, production, ...(deps.metricsToken ? { token: deps.metricsToken } : {}) }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get(
    '/readyz',
    readinessHandler(
      deps.readiness ??
        createReadiness({ storage: deps.storage, clock: deps.clock, logger: deps.logger, ...(deps.serviceAccounts ? { serviceAccounts: deps.serviceAccounts } : {}) }),
      // Fee accounts' addresses and balances: to the operator's token; in sandbox to anyone unless a token is set.
      (req) => bringsMetricsToken(req, deps.metricsToken) || (!production && deps.metricsToken === undefined),
    ),
  );

  // The partner dashboard: its own pages, session and CSP (server/dashboard).
  if (deps.dashboard)
    app.use(
      dashboardRouter({
        ...deps.dashboard,
        storage: deps.storage,
        clock: deps.clock,
        mode: deps.mode ?? 'sandbox',
        keyTrustMs: deps.keyTrustMs ?? 1000,
        keyRevocations,
        assets: deps.assets,
        ...(deps.checkLogo ? { checkLogo: deps.checkLogo } : {}),
        ...(deps.onJobsWritten ? { onJobsWritten: deps.onJobsWritten } : {}),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        webhookEndpoints: deps.webhookEndpoints,
        ...(deps.webhookRequestLimits ? { webhookRequestLimits: deps.webhookRequestLimits } : {}),
        ...(deps.explorerTxUrls ? { explorerTxUrls: deps.explorerTxUrls } : {}),
        ...(deps.feeBudget ? { feeBudget: deps.feeBudget } : {}),
      }),
    );
  // Solana Pay transaction requests: JSON for wallets, any origin (server/pages/solana-pay.ts).
  app.use(solanaPayRouter(gateway));
  // Buyer pages and /docs: their own CSP (page-csp.ts).
  app.use(pagesRouter({ ...deps, payBaseUrl: deps.payBaseUrl ?? 'http://localhost:3000/pay', docs, collectDataSecret, gateway }));
  if (deps.extraRoutes) app.use(deps.extraRoutes);
  // Anything else answers like an unknown API path (JSON 404).
  app.use(api);
  app.use(notFoundHandler());
  app.use(errorHandler());
  return app;
}
