import type { Request } from 'express';
import type { AssetRegistry } from '../domain/assets.ts';
import { formatChainId } from '../domain/caip.ts';
import type { PaymentListQuery } from '../domain/payments/records.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payments/state-machine.ts';

/** The payment list's filters as the page shows them back (and links keep them). */
export interface PaymentFilters {
  merchant: string;
  statuses: PaymentStatus[];
  /** YYYY-MM-DD, UTC days, both inclusive. */
  from: string;
  to: string;
  network: string;
  reference: string;
}

const MERCHANT_ID = /^mrch_[0-9A-HJKMNP-TV-Z]{26}$/;
export const PAYMENT_ID = /^pay_[0-9A-HJKMNP-TV-Z]{26}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const one = (v: unknown) => (typeof v === 'string' ? v : '');
const many = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** A UTC day as its first instant, or undefined for a blank or impossible one (2026-02-31). */
function dayStart(day: string): Date | undefined {
  if (!DAY.test(day)) return undefined;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().startsWith(day) ? new Date(t) : undefined;
}

/** The chains the configured assets live on: the network filter's choices. */
export const networksOf = (assets: AssetRegistry) => [...new Set(assets.all().map((a) => formatChainId(a.parsed.chain)))].sort();

/**
 * The list's filters from the query string, as the API's list takes them (merchant, statuses,
 * created from/to, network, reference); anything malformed is dropped and named in `problems`
 * rather than widening the list silently.
 */
export function paymentFiltersOf(req: Request, assets: AssetRegistry): { filters: PaymentFilters; query: Omit<PaymentListQuery, 'limit'>; problems: string[] } {
  const problems: string[] = [];
  const merchant = one(req.query.merchant);
  const statuses = many(req.query.status).filter((s): s is PaymentStatus => (PAYMENT_STATUSES as readonly string[]).includes(s));
  const from = one(req.query.from);
  const to = one(req.query.to);
  const network = one(req.query.network);
  const reference = one(req.query.reference).slice(0, 256);
  const start = dayStart(from);
  const end = dayStart(to);
  if (from && !start) problems.push('From: give a date as YYYY-MM-DD.');
  if (to && !end) problems.push('To: give a date as YYYY-MM-DD.');
  if (start && end && start > end) problems.push('To must not be before From.');
  if (merchant && !MERCHANT_ID.test(merchant)) problems.push('Merchant: not a merchant id.');
  if (network && !networksOf(assets).includes(network)) problems.push('Network: not a network this service serves.');
  const filters: PaymentFilters = { merchant, statuses, from, to, network, reference };
  if (problems.length) return { filters, query: { sortBy: 'date', sortDir: 'desc', merchantIds: [] }, problems };
  return {
    filters,
    problems,
    query: {
      ...(merchant ? { merchantIds: [merchant] } : {}),
      ...(statuses.length ? { statuses } : {}),
      ...(start ? { createdFrom: start } : {}),
      ...(end ? { createdBefore: new Date(end.getTime() + DAY_MS) } : {}),
      ...(network ? { networks: [network] } : {}),
      ...(reference ? { referenceId: reference } : {}),
      sortBy: 'date',
      sortDir: 'desc',
    },
  };
}

/** The filters as a query string (for the next page and the CSV link). */
export function filterQuery(f: PaymentFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.merchant) p.set('merchant', f.merchant);
  for (const s of f.statuses) p.append('status', s);
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.network) p.set('network', f.network);
  if (f.reference) p.set('reference', f.reference);
  return p;
}
