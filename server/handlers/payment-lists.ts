import { validationError, type ValidationIssue } from '../errors.ts';
import { partnerOf, type RequestContext } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { currencyExponent, formatMinor } from '../domain/currencies.ts';
import { paymentView } from '../domain/payments/view.ts';
import type { PaymentDeps } from '../domain/payments/transition.ts';
import type { PaymentListQuery, PaymentStatus } from '../ports/storage.ts';
import { assertOwnsMerchant } from './payment-access.ts';
import { decodeCursorAs, encodeCursor, isCursorId } from './cursor.ts';

type Ops = 'listPayments' | 'listMerchantPayments' | 'listMerchantPaymentsByPath';

interface ListParams {
  startTs?: string;
  endTs?: string;
  status?: string[];
  network?: string;
  referenceId?: string;
  sortBy?: 'date' | 'amount';
  sortDir?: 'asc' | 'desc';
  cursor?: string;
  limit?: number;
}

type Stats = { totalRevenue: Array<{ amount: number; currency: string }>; totalTransactions: number; totalCustomers: number };

/**
 * The cursor carries the keyset position, the sort it belongs to and the stats computed on the
 * first page: a deep page costs one indexed range read, like the first, and every page of one
 * listing reports the same stats.
 */
interface CursorState {
  id: string;
  v?: string;
  sort: string;
  stats: Stats;
}

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isRevenue = (r: unknown) => !!r && typeof r === 'object' && /^[A-Z]{3}$/.test(String((r as { currency?: unknown }).currency)) && Number.isFinite((r as { amount?: unknown }).amount);

/** The stats are echoed to the client as they are: a forged cursor must not shape the answer. */
function isStats(s: unknown): s is Stats {
  if (!s || typeof s !== 'object') return false;
  const { totalRevenue, totalTransactions, totalCustomers } = s as Record<string, unknown>;
  return Array.isArray(totalRevenue) && totalRevenue.length <= 1000 && totalRevenue.every(isRevenue) && isCount(totalTransactions) && isCount(totalCustomers);
}

function decode(cursor: string, sort: string): CursorState {
  return decodeCursorAs<CursorState>(
    cursor,
    // `v` is the amount sort's fiat value in minor units, read back as a bigint.
    (c) => isCursorId(c.id) && c.sort === sort && (c.v === undefined || (typeof c.v === 'string' && /^\d{1,40}$/.test(c.v))) && isStats(c.stats),
    'is not a cursor issued for this sort order',
  );
}

/**
 * Bounds of a date filter. The format (RFC 3339) is checked by the validator, but it admits year
 * 0000, which PostgreSQL refuses, and nothing about this service predates the Unix epoch.
 */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function timestamp(raw: string | undefined, field: string, issues: ValidationIssue[]): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const t = Date.parse(raw);
  if (!(t >= EARLIEST && t <= LATEST)) {
    issues.push({ field, message: 'must be a date-time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z' });
    return undefined;
  }
  return new Date(t);
}

function toQuery(params: ListParams, merchantIds: string[] | undefined): PaymentListQuery {
  const issues: ValidationIssue[] = [];
  const from = timestamp(params.startTs, 'query.startTs', issues);
  const before = timestamp(params.endTs, 'query.endTs', issues);
  if (from && before && from >= before) issues.push({ field: 'query.endTs', message: 'must be after startTs' });
  if (issues.length) throw validationError(issues);
  return {
    ...(merchantIds ? { merchantIds } : {}),
    ...(params.status?.length ? { statuses: params.status as PaymentStatus[] } : {}),
    ...(from ? { createdFrom: from } : {}),
    ...(before ? { createdBefore: before } : {}),
    ...(params.network ? { network: params.network } : {}),
    ...(params.referenceId ? { referenceId: params.referenceId } : {}),
    sortBy: params.sortBy ?? 'date',
    sortDir: params.sortDir ?? 'desc',
    limit: params.limit ?? 50,
  };
}

export function paymentListHandlers(deps: PaymentDeps): Pick<OperationHandlers, Ops> {
  const { storage, clock, assets } = deps;

  async function listing(ctx: RequestContext, params: ListParams, merchantIds: string[] | undefined) {
    const partner = partnerOf(ctx);
    const q = toQuery(params, merchantIds);
    const sort = `${q.sortBy}:${q.sortDir}`;
    const previous = params.cursor ? decode(params.cursor, sort) : undefined;
    if (previous) q.after = { id: previous.id, ...(previous.v ? { fiatValue: BigInt(previous.v) } : {}) };
    const limit = q.limit;
    const [rows, stats] = await Promise.all([
      storage.payments.list(partner.id, { ...q, limit: limit + 1 }),
      previous ? Promise.resolve(previous.stats) : storage.payments.stats(partner.id, q).then((s): Stats => ({
        totalRevenue: s.revenue.map((r) => ({ currency: r.currency, amount: Number(formatMinor(r.minor, currencyExponent(r.currency) ?? 2)) })),
        totalTransactions: s.transactions,
        totalCustomers: s.customers,
      })),
    ]);
    const page = rows.slice(0, limit);
    const merchants = new Map((await storage.merchants.getMany(partner.id, [...new Set(page.map((p) => p.merchantId))])).map((m) => [m.id, m]));
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor({ id: last.id, ...(q.sortBy === 'amount' ? { v: last.price.value.toString() } : {}), sort, stats }) : null;
    return { status: 200 as const, body: { data: page.map((p) => paymentView(p, merchants.get(p.merchantId), assets, clock.now())), nextCursor, stats } };
  }

  return {
    async listPayments({ query, ctx }) {
      return listing(ctx, query, query.merchantId?.length ? query.merchantId : undefined);
    },
    async listMerchantPayments({ query, ctx }) {
      await assertOwnsMerchant(storage, partnerOf(ctx).id, ctx.merchantId!);
      return listing(ctx, query, [ctx.merchantId!]);
    },
    async listMerchantPaymentsByPath({ path, query, ctx }) {
      await assertOwnsMerchant(storage, partnerOf(ctx).id, path.merchantId);
      return listing(ctx, query, [path.merchantId]);
    },
  };
}
