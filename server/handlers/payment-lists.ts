import { validationError, type ValidationIssue } from '../errors.ts';
import { partnerOf, type RequestContext } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { currencyExponent, formatMinor } from '../domain/currencies.ts';
import { paymentListItemView } from '../domain/payments/view.ts';
import { legacyPaymentView, legacyStats } from '../domain/payments/legacy-view.ts';
import { statusesSelectedBy } from '../domain/payments/wire-versions.ts';
import { parseAssetId } from '../domain/caip.ts';
import type { AssetRegistry } from '../domain/assets.ts';
import type { PaymentDeps } from '../domain/payments/transition.ts';
import type { PaymentListQuery, PaymentRecord } from '../domain/payments/records.ts';
import { priceUnit, type PaymentPrice } from '../domain/payments/price.ts';
import { assertOwnsMerchant } from '../domain/payments/access.ts';
import { decodeCursorAs, encodeCursor, isCursorId } from './cursor.ts';

type Ops = 'listPayments' | 'listMerchantPayments' | 'listMerchantPaymentsByPath';

interface ListParams {
  startTs?: string;
  endTs?: string;
  status?: string[];
  network?: string;
  token_symbol?: string[];
  asset?: string;
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
  /** The amount sort's position: the last row's price unit (`iso4217/…`, `caip19/…`) and value. */
  u?: string;
  v?: string;
  sort: string;
  stats: Stats;
}

/** The price an amount cursor names, or undefined when its unit is not one a price can have. */
function priceAt(unit: string | undefined, value: string | undefined): PaymentPrice | undefined {
  if (unit === undefined || value === undefined) return undefined;
  if (/^iso4217\/[A-Z]{3}$/.test(unit)) return { kind: 'fiat', currency: unit.slice(8), value: BigInt(value) };
  const asset = unit.startsWith('caip19/') && unit.length <= 300 ? unit.slice(7) : undefined;
  return asset && parseAssetId(asset) ? { kind: 'token', asset, value: BigInt(value) } : undefined;
}

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isRevenue = (r: unknown) =>
  !!r && typeof r === 'object' && /^[A-Z]{3}$/.test(String((r as { currency?: unknown }).currency)) && Number.isFinite((r as { amount?: unknown }).amount);

/** The stats are echoed to the client as they are: a forged cursor must not shape the answer. */
function isStats(s: unknown): s is Stats {
  if (!s || typeof s !== 'object') return false;
  const { totalRevenue, totalTransactions, totalCustomers } = s as Record<string, unknown>;
  return Array.isArray(totalRevenue) && totalRevenue.length <= 1000 && totalRevenue.every(isRevenue) && isCount(totalTransactions) && isCount(totalCustomers);
}

function decode(cursor: string, sort: string): CursorState {
  return decodeCursorAs<CursorState>(
    cursor,
    // `v` is the amount sort's value in its unit's minor (base) units, read back as a bigint: up to
    // 78 digits (a token price may be any uint256, issue 30 item 9), so every cursor issued is accepted.
    (c) =>
      isCursorId(c.id) &&
      c.sort === sort &&
      (c.v === undefined || (typeof c.v === 'string' && /^\d{1,78}$/.test(c.v))) &&
      (c.u === undefined || typeof c.u === 'string') &&
      // An amount cursor names the unit its row is in: the order groups by unit (before issue 30
      // item 9 it had none, and token and fiat amounts were compared as numbers).
      (!sort.startsWith('amount:') || priceAt(c.u, c.v) !== undefined) &&
      isStats(c.stats),
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

const looksLikeCaip = (s: string) => s.includes(':') || s.includes('/');

/** The assets whose symbol is one of `symbols` (case-insensitive, any chain). */
function assetsWithSymbol(assets: AssetRegistry, symbols: string[]): Set<string> {
  const wanted = new Set(symbols.map((s) => s.toUpperCase()));
  return new Set(
    assets
      .all()
      .filter((a) => wanted.has(a.symbol.toUpperCase()))
      .map((a) => a.id),
  );
}

/**
 * `token_symbol` and the deprecated `asset` as the CAIP-19 ids a payment must have been paid in,
 * or undefined when neither is given. Both given: a payment must match both. A symbol no
 * configured asset has matches nothing; a malformed value is a 400.
 */
function assetFilter(params: ListParams, assets: AssetRegistry, names: { asset: string }, issues: ValidationIssue[]): string[] | undefined {
  const sets: Array<Set<string>> = [];
  if (params.token_symbol?.length) {
    if (params.token_symbol.some(looksLikeCaip))
      issues.push({ field: 'query.token_symbol', message: 'takes token symbols such as USDC; CAIP-19 ids are not supported here (use asset)' });
    sets.push(assetsWithSymbol(assets, params.token_symbol));
  }
  if (params.asset !== undefined) {
    if (!looksLikeCaip(params.asset)) sets.push(assetsWithSymbol(assets, [params.asset]));
    else if (parseAssetId(params.asset)) sets.push(new Set([params.asset]));
    else issues.push({ field: `query.${names.asset}`, message: 'must be a CAIP-19 asset id (e.g. eip155:8453/erc20:0x…) or a token symbol (e.g. USDC)' });
  }
  if (!sets.length) return undefined;
  return [...sets.reduce((a, b) => new Set([...a].filter((x) => b.has(x))))];
}

/** The version whose vocabulary the list speaks: the resolved API version, or the legacy list's own ('legacy'). */
type ListVocabulary = string;

function toQuery(
  params: ListParams,
  merchantIds: string[] | undefined,
  assets: AssetRegistry,
  vocabulary: ListVocabulary,
  names = { startTs: 'startTs', endTs: 'endTs', asset: 'asset' },
): PaymentListQuery {
  const issues: ValidationIssue[] = [];
  const from = timestamp(params.startTs, `query.${names.startTs}`, issues);
  const before = timestamp(params.endTs, `query.${names.endTs}`, issues);
  if (from && before && from >= before) issues.push({ field: `query.${names.endTs}`, message: `must be after ${names.startTs}` });
  const paidIn = assetFilter(params, assets, names, issues);
  if (issues.length) throw validationError(issues);
  return {
    ...(merchantIds ? { merchantIds } : {}),
    ...(params.status?.length ? { statuses: statusesSelectedBy(params.status, vocabulary) } : {}),
    ...(paidIn ? { assets: paidIn } : {}),
    ...(from ? { createdFrom: from } : {}),
    ...(before ? { createdBefore: before } : {}),
    // One CAIP-2 id, or several separated by commas.
    ...(params.network
      ? {
          networks: params.network
            .split(',')
            .map((n) => n.trim())
            .filter(Boolean),
        }
      : {}),
    ...(params.referenceId ? { referenceId: params.referenceId } : {}),
    sortBy: params.sortBy ?? 'date',
    sortDir: params.sortDir ?? 'desc',
    limit: params.limit ?? 50,
  };
}

export function paymentListHandlers(deps: PaymentDeps): Pick<OperationHandlers, Ops> {
  const { storage, clock, assets } = deps;

  /** One page of payments, its cursor and the listing's stats: the query every list shares. */
  async function listing(ctx: RequestContext, q: PaymentListQuery, cursor: string | undefined): Promise<{ page: PaymentRecord[]; nextCursor: string | null; stats: Stats }> {
    const partner = partnerOf(ctx);
    const sort = `${q.sortBy}:${q.sortDir}`;
    const previous = cursor ? decode(cursor, sort) : undefined;
    const at = previous && priceAt(previous.u, previous.v);
    if (previous) q.after = { id: previous.id, ...(at ? { price: at } : {}) };
    const limit = q.limit;
    const [rows, stats] = await Promise.all([
      storage.payments.list(partner.id, { ...q, limit: limit + 1 }),
      previous
        ? Promise.resolve(previous.stats)
        : storage.payments.stats(partner.id, q).then((s): Stats => ({
            totalRevenue: s.revenue.map((r) => ({ currency: r.currency, amount: Number(formatMinor(r.minor, currencyExponent(r.currency) ?? 2)) })),
            totalTransactions: s.transactions,
            totalCustomers: s.customers,
          })),
    ]);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last
        ? encodeCursor({ id: last.id, ...(q.sortBy === 'amount' ? { u: priceUnit(last.price), v: last.price.value.toString() } : {}), sort, stats })
        : null;
    return { page, nextCursor, stats };
  }

  async function currentList(ctx: RequestContext, params: ListParams, merchantIds: string[] | undefined) {
    const version = ctx.apiVersion!;
    const { page, nextCursor, stats } = await listing(ctx, toQuery(params, merchantIds, assets, version), params.cursor);
    const merchants = new Map((await storage.merchants.getMany(partnerOf(ctx).id, [...new Set(page.map((p) => p.merchantId))])).map((m) => [m.id, m]));
    const data = page.map((p) => paymentListItemView(p, merchants.get(p.merchantId), assets, clock.now(), version));
    return { status: 200 as const, body: { data, nextCursor, stats } };
  }

  return {
    async listPayments({ query, ctx }) {
      return currentList(ctx, query, query.merchantId?.length ? query.merchantId : undefined);
    },
    async listMerchantPayments({ query, ctx }) {
      await assertOwnsMerchant(storage, partnerOf(ctx).id, ctx.merchantId!);
      return currentList(ctx, query, [ctx.merchantId!]);
    },
    async listMerchantPaymentsByPath({ path, query, ctx }) {
      // The legacy contract: snake_case in and out, whatever the version.
      await assertOwnsMerchant(storage, partnerOf(ctx).id, path.merchant_id);
      const params: ListParams = {
        ...(query.start_ts !== undefined ? { startTs: query.start_ts } : {}),
        ...(query.end_ts !== undefined ? { endTs: query.end_ts } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.network !== undefined ? { network: query.network } : {}),
        ...(query.asset !== undefined ? { asset: query.asset } : {}),
        ...(query.sort_by ? { sortBy: query.sort_by } : {}),
        ...(query.sort_dir ? { sortDir: query.sort_dir } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
      };
      const q = toQuery(params, [path.merchant_id], assets, 'legacy', { startTs: 'start_ts', endTs: 'end_ts', asset: 'asset' });
      const { page, nextCursor, stats } = await listing(ctx, q, query.cursor);
      return { status: 200, body: { data: page.map((p) => legacyPaymentView(p, assets, clock.now())), next_cursor: nextCursor, stats: legacyStats(stats) } };
    },
  };
}
