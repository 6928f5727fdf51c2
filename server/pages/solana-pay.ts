import express, { Router, type RequestHandler, type Response } from 'express';
import QRCode from 'qrcode';
import { AppError } from '../errors.ts';
import { limitByAddress } from '../http/rate-limit.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { GatewayDeps } from '../domain/gateway/gateway-deps.ts';
import type { CollectDeps } from '../domain/collect-data/collect.ts';
import { answerTransactionRequest } from '../domain/gateway/transaction-request.ts';
import { formatChainId } from '../domain/caip.ts';
import { needsCollection } from '../domain/collect-data/schema.ts';
import { priceUnit } from '../domain/payments/price.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { AssetRegistry } from '../domain/assets.ts';
import type { ChainRegistry } from '../ports/chains.ts';
import type { CryptoSettlementRecord, MerchantRecord } from '../domain/merchants/records.ts';
import { esc } from './html.ts';

/**
 * Solana Pay transaction requests (https://docs.solanapay.com/spec, "Transaction Request"): the
 * payment page offers `solana:<link>`, a wallet GETs the link for `{label, icon}` and POSTs
 * `{account}` for `{transaction, message}`, which it signs and broadcasts itself. The link is keyed
 * by the payment id (the page's bearer capability) and the asset; the work is the gateway's
 * (server/domain/gateway/transaction-request.ts), and the payment is found on chain with no confirm.
 */
export type SolanaPayDeps = GatewayDeps & { collect?: CollectDeps; rateLimiter?: RateLimiter; payBaseUrl: string };

/** The transaction request link of one payment and asset (absolute HTTPS in production). */
export function transactionRequestLink(payBaseUrl: string, paymentId: string, asset: string): string {
  return `${payBaseUrl}/${paymentId}/solana-pay?asset=${encodeURIComponent(asset)}`;
}

/** `solana:<link>`: a link with a query is URL-encoded whole, as the spec asks. */
export function solanaPayUrl(link: string): string {
  return `solana:${encodeURIComponent(link)}`;
}

/** The spec's CORS: wallets (web ones too) call from any origin, with no credentials. */
const cors: RequestHandler = (_req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Accept-Encoding');
  res.setHeader('Access-Control-Max-Age', '600');
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** An error as the spec's wallets read it (`message`), with the service's code beside it. */
function fail(res: Response, err: unknown): void {
  if (err instanceof AppError) return void res.status(err.status).json({ message: err.message, code: err.code });
  // Only the chain or storage failing gets here: a retry may work, and nothing of it is shown.
  res.status(502).json({ message: 'The payment service could not build the transaction now; scan again in a moment', code: 'bad_gateway' });
}

/** The routes: `GET|POST|OPTIONS {payPath}/<id>/solana-pay?asset=<caip19>` and its icon. */
export function solanaPayRouter(deps: SolanaPayDeps): Router {
  const payPath = new URL(deps.payBaseUrl).pathname.replace(/\/+$/, '');
  const path = `${payPath}/:id/solana-pay`;
  const router = Router();
  const limit: RequestHandler[] = deps.rateLimiter ? [limitByAddress(deps.rateLimiter)] : [];
  const asset = (raw: unknown) => (typeof raw === 'string' ? raw : '');

  router.options(path, cors, (_req, res) => void res.status(204).end());

  router.get(path, cors, ...limit, async (req, res) => {
    try {
      const found = await deps.storage.payments.getForGateway(String(req.params.id));
      if (!found) throw new AppError('payment_not_found', 'No payment with this id');
      const label = found.merchant?.name || 'Payment';
      const icon = found.merchant?.iconUrl ?? `${deps.payBaseUrl}/${found.payment.id}/solana-pay/icon.svg`;
      res.json({ label, icon });
    } catch (err) {
      fail(res, err);
    }
  });

  router.post(path, cors, ...limit, express.json({ limit: '2kb' }), async (req, res) => {
    try {
      const account = (req.body as { account?: unknown } | undefined)?.account;
      if (typeof account !== 'string' || account.length > 64) throw new AppError('invalid_params', 'The request must be {"account": "<base58 public key>"}');
      res.json(await answerTransactionRequest(deps, String(req.params.id), { account, asset: asset(req.query.asset) }));
    } catch (err) {
      fail(res, err);
    }
  });

  // An icon for merchants without a logo: the spec asks for an SVG, PNG or WebP at an absolute URL.
  router.get(`${path}/icon.svg`, cors, ...limit, async (req, res) => {
    const found = await deps.storage.payments.getForGateway(String(req.params.id)).catch(() => null);
    if (!found) return void res.status(404).json({ message: 'No payment with this id', code: 'payment_not_found' });
    const initial = (found.merchant?.name ?? '').trim().charAt(0).toUpperCase() || '?';
    res.setHeader('Content-Type', 'image/svg+xml');
    res.send(
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="16" fill="#1f2937"/><text x="48" y="62" font-family="sans-serif" font-size="44" text-anchor="middle" fill="#fff">${esc(initial)}</text></svg>`,
    );
  });
  return router;
}

/** What the page needs to offer Solana Pay for a payment. */
export interface SolanaPayOffer {
  /** One per accepted asset a Solana Pay wallet can pay. */
  links: Array<{ symbol: string; network: string; url: string }>;
}

/**
 * The Solana Pay links the page shows: only while the payment waits for payment, on an https pay base URL, for assets on a
 * chain whose adapter builds wallet-broadcast transactions, and never when the merchant asks for
 * the buyer's details (a Solana Pay wallet cannot fill the form).
 */
export function solanaPayOffer(
  deps: { assets: AssetRegistry; chains?: ChainRegistry; payBaseUrl: string },
  p: PaymentRecord,
  found: { merchant: MerchantRecord | null; settlements: CryptoSettlementRecord[] },
): SolanaPayOffer | null {
  // The spec (and every wallet) takes https links only: a plain-http deployment (the local sandbox) offers none.
  if (p.status !== 'requires_action' || !deps.chains || !deps.payBaseUrl.startsWith('https://')) return null;
  if (needsCollection(found.merchant?.dataCollection, priceUnit(p.price), p.price.value)) return null;
  const links: SolanaPayOffer['links'] = [];
  const seen = new Set<string>();
  for (const s of found.settlements) {
    const a = deps.assets.get(s.asset);
    if (!a || seen.has(a.id) || (p.price.kind === 'token' && p.price.asset !== a.id)) continue;
    if (!deps.chains.forChain(formatChainId(a.parsed.chain))?.walletTransaction) continue;
    seen.add(a.id);
    links.push({ symbol: a.symbol, network: a.networkName ?? formatChainId(a.parsed.chain), url: solanaPayUrl(transactionRequestLink(deps.payBaseUrl, p.id, a.id)) });
  }
  return links.length ? { links } : null;
}

/** The page's Solana Pay section: a QR code and a link per asset. */
export async function renderSolanaPaySection(offer: SolanaPayOffer): Promise<string> {
  const items = await Promise.all(
    offer.links.map(async (l) => {
      const qr = await QRCode.toString(l.url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
      const name = `${l.symbol} on ${l.network}`;
      return `<li><figure class="qr" role="img" aria-label="Solana Pay QR code: ${esc(name)}">${qr}</figure><p class="link"><a class="solana-pay-link" href="${esc(l.url)}">Pay ${esc(name)} with a Solana Pay wallet</a></p></li>`;
    }),
  );
  return `<section class="solana-pay" id="solana-pay" aria-labelledby="solana-pay-title">
<h2 id="solana-pay-title">Pay with Solana Pay</h2>
<p class="muted">Scan with Phantom, Solflare or another Solana Pay wallet. Your wallet pays the network fee (a fraction of a cent in SOL).</p>
<ul class="solana-pay-links">${items.join('')}</ul>
</section>`;
}
