import express, { Router, type Request, type RequestHandler } from 'express';
import { AppError, validationError, type ValidationIssue } from '../errors.ts';
import { buildOptions, MAX_QUOTED_ACCOUNTS, optionsWithinRate } from '../domain/gateway/options.ts';
import { confirmPayment } from '../domain/gateway/confirm.ts';
import { fetchOptionActions, mustBeActionable } from '../domain/gateway/actions.ts';
import type { GatewayDeps } from '../domain/gateway/gateway-deps.ts';
import { expireIfDue } from '../domain/payments/transition.ts';
import { longPoll } from '../domain/payments/long-poll.ts';
import { statusView } from '../domain/payments/view.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { CollectDeps } from '../domain/collect-data/collect.ts';
import { DEFAULT_API_VERSION } from '../http/versions.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';

export type PageGatewayDeps = GatewayDeps & { paymentChanges: PaymentChangesPort; collect?: CollectDeps };

/** Who confirmed, as the partner sees it: a browser wallet on our own page (its self-declared name is not proof of anything). */
const PAGE_WALLET_APP = { name: 'Browser wallet on the payment page', iconUrl: null };
/** Long enough for the page to follow a confirm to its answer, short enough to keep few waiters per address. */
const PAGE_MAX_POLL_MS = 10_000;
/** Results a page can send for one option: an approval and a signature at most today; room for more. */
const MAX_RESULTS = 8;
const MAX_TEXT = 64 * 1024;
const PAYMENT_ID = /^pay_[0-9A-Za-z]{1,64}$/;
const isPaymentId = (id: string) => PAYMENT_ID.test(id);

/**
 * The gateway's wallet use cases (options → fetch → confirm → status) for the payment page's
 * browser-wallet script, under `{payPath}/_wallet/v1/gateway/payment/{id}/…`, the paths the
 * SDK's keyless client (`paymentPage: true`) calls. The payment id in the path is the page's
 * capability already (whoever has the link may pay it), so no key is asked and none is in the
 * page; every call counts against the client address like the page itself (`limit`). Bodies are
 * checked here by hand: these routes are not in the API contract, and a client mistake must
 * answer 400 in the error shape, never reach a use case half-formed.
 */
export function pageWalletRouter(deps: PageGatewayDeps, payPath: string, limit: RequestHandler[]): Router {
  const router = Router();
  const base = `${payPath}/_wallet/v1/gateway/payment/:id`;
  const json = express.json({ limit: '256kb' });
  const { storage, assets, clock } = deps;

  async function payment(req: Request): Promise<PaymentRecord> {
    const id = String(req.params.id);
    const found = isPaymentId(id) ? await storage.payments.get(id) : null;
    if (!found) throw new AppError('payment_not_found', 'No payment with this id');
    return expireIfDue(deps, found);
  }
  const current = async (known: PaymentRecord) => expireIfDue(deps, (await storage.payments.get(known.id)) ?? known);
  const view = (p: PaymentRecord) => statusView(p, assets, clock.now(), DEFAULT_API_VERSION);

  router.post(`${base}/options`, ...limit, json, async (req, res) => {
    const accounts = stringList(req.body, 'accounts', MAX_QUOTED_ACCOUNTS);
    const id = String(req.params.id);
    const found = isPaymentId(id) ? await storage.payments.getForGateway(id) : null;
    if (!found) throw new AppError('payment_not_found', 'No payment with this id');
    const p = mustBeActionable(await expireIfDue(deps, found.payment));
    await optionsWithinRate(deps, p.id);
    const { options, reason } = await buildOptions(deps, p, found, accounts);
    const collectData = options.find((o) => o.collectData)?.collectData ?? null;
    res.setHeader('Cache-Control', 'no-store');
    res.json({ options, collectData, ...(reason ? { details: { reason } } : {}) });
  });

  router.post(`${base}/fetch`, ...limit, json, async (req, res) => {
    const optionId = text(req.body, 'optionId');
    const data = text(req.body, 'data');
    res.setHeader('Cache-Control', 'no-store');
    res.json({ actions: await fetchOptionActions(deps, await payment(req), optionId, data) });
  });

  router.post(`${base}/confirm`, ...limit, json, async (req, res) => {
    const optionId = text(req.body, 'optionId');
    const results = walletResults(req.body);
    const collectedData = collected(req.body);
    const p = await longPoll(deps.paymentChanges, {
      paymentId: String(req.params.id),
      maxPollMs: pollMs(req),
      first: async () => confirmPayment(deps, await payment(req), optionId, results, collectedData, PAGE_WALLET_APP),
      reread: current,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(view(p));
  });

  router.get(`${base}/status`, ...limit, async (req, res) => {
    const p = await longPoll(deps.paymentChanges, { paymentId: String(req.params.id), maxPollMs: pollMs(req), first: () => payment(req), reread: current });
    res.setHeader('Cache-Control', 'no-store');
    res.json(view(p));
  });
  return router;
}

function fail(field: string, message: string): never {
  const issues: ValidationIssue[] = [{ field: `body.${field}`, message }];
  throw validationError(issues);
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

function text(body: unknown, name: string): string {
  const value = field(body, name);
  if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT) fail(name, `must be a non-empty string of at most ${MAX_TEXT} characters`);
  return value;
}

function stringList(body: unknown, name: string, max: number): string[] {
  const value = field(body, name);
  if (!Array.isArray(value) || value.length === 0 || value.length > max || !value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 256)) {
    fail(name, `must be a list of 1 to ${max} CAIP-10 accounts`);
  }
  return value as string[];
}

/** `[{ type: 'walletRpc', data: [<string>] }, …]`, the SDK executor's results, as the gateway's confirm takes them. */
function walletResults(body: unknown): string[] {
  const value = field(body, 'results');
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_RESULTS) fail('results', `must be a list of 1 to ${MAX_RESULTS} results`);
  return value.map((r, i) => {
    const data = field(r, 'data');
    if (field(r, 'type') !== 'walletRpc' || !Array.isArray(data) || data.length !== 1 || typeof data[0] !== 'string' || data[0] === '' || data[0].length > MAX_TEXT) {
      fail(`results[${i}]`, "must be { type: 'walletRpc', data: [<string>] }");
    }
    return data[0];
  });
}

function collected(body: unknown): { fields: Array<{ id: string; value: string }> } | undefined {
  const value = field(body, 'collectedData');
  if (value === undefined || value === null) return undefined;
  const fields = field(value, 'fields');
  if (!Array.isArray(fields) || fields.length > 50) fail('collectedData.fields', 'must be a list of at most 50 fields');
  return {
    fields: fields.map((f, i) => {
      const id = field(f, 'id');
      const v = field(f, 'value');
      if (typeof id !== 'string' || typeof v !== 'string' || id.length > 128 || v.length > 1024) fail(`collectedData.fields[${i}]`, 'must be { id, value } strings');
      return { id, value: v };
    }),
  };
}

function pollMs(req: Request): number {
  const raw = Number(req.query.maxPollMs ?? 0);
  return Number.isFinite(raw) ? Math.min(Math.max(raw, 0), PAGE_MAX_POLL_MS) : 0;
}
