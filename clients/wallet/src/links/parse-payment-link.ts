import { isPaymentId } from './payment-id.ts';
import { isTrustedHost, normaliseTrustedHost, type TrustedHost } from './trusted-host.ts';

/** Why an input was not taken as a payment link; callers may route `pairing_uri` elsewhere. */
export type NotPaymentLinkReason =
  'empty' | 'pairing_uri' | 'insecure_scheme' | 'credentials_in_url' | 'untrusted_host' | 'missing_payment_id' | 'invalid_payment_id' | 'unrecognised';

export type PaymentLinkResult = { kind: 'payment'; paymentId: string } | { kind: 'not_payment_link'; reason: NotPaymentLinkReason };

export interface ParsePaymentLinkOptions {
  /** Host serving payment links (e.g. `pay.example`); it and its subdomains are trusted. */
  payHost: string;
  /**
   * Accept `http:` links too. Only for local development against a service on localhost;
   * production links are https only.
   */
  allowInsecureHttp?: boolean;
  /**
   * The path payment links live under when the service's pay base URL has one, e.g. `/pay` for
   * `https://example.com/pay/<id>`. Default: links at the root, `https://<payHost>/<id>`.
   */
  payPath?: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const PAIRING = /^wc:[^@?\s]+@\d+(\?|$)/i;

/**
 * Recognises a payment in whatever a buyer scanned or pasted: a path or query link on the
 * pay host, a pairing-style `wc:` URI carrying a `pay` link, or a bare payment id.
 * Payment forms are tried before the input is classed as a pairing URI or generic URL, and the
 * host is validated before any id is read, so a link on a look-alike host never yields an id.
 * Anything else is a typed "not a payment link" answer, never a guess.
 */
export function parsePaymentLink(input: string, options: ParsePaymentLinkOptions): PaymentLinkResult {
  const trusted = normaliseTrustedHost(options.payHost);
  const prefix = pathSegments(options.payPath); // checked up front, like payHost, whatever the input
  const text = input.trim();
  if (text === '') return notPayment('empty');
  if (isPaymentId(text)) return { kind: 'payment', paymentId: text };
  if (/^wc:/i.test(text)) return parsePairingUri(text, trusted, options, prefix);
  if (SCHEME.test(text)) return parseWebLink(text, trusted, options, prefix);
  return notPayment('unrecognised');
}

function parsePairingUri(text: string, trusted: TrustedHost, options: ParsePaymentLinkOptions, prefix: string[]): PaymentLinkResult {
  if (!PAIRING.test(text)) return notPayment('unrecognised');
  const queryStart = text.indexOf('?');
  const query = queryStart === -1 ? '' : text.slice(queryStart + 1);
  const pay = new URLSearchParams(query).get('pay');
  // A pairing URI without a payment link is a session request for the caller's WalletConnect stack.
  if (pay === null || pay.trim() === '') return notPayment('pairing_uri');
  return parseWebLink(pay.trim(), trusted, options, prefix);
}

function parseWebLink(text: string, trusted: TrustedHost, options: ParsePaymentLinkOptions, prefix: string[]): PaymentLinkResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return notPayment('unrecognised');
  }
  const httpAllowed = options.allowInsecureHttp === true && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) {
    return notPayment(url.protocol === 'http:' ? 'insecure_scheme' : 'unrecognised');
  }
  if (url.username !== '' || url.password !== '') return notPayment('credentials_in_url');
  if (!isTrustedHost(url, trusted)) return notPayment('untrusted_host');
  return extractPaymentId(url, prefix);
}

function pathSegments(payPath: string | undefined): string[] {
  if (payPath === undefined) return [];
  if (!payPath.startsWith('/') || /[?#]/.test(payPath)) throw new TypeError(`payPath must be a path such as "/pay", got ${JSON.stringify(payPath)}`);
  return payPath.split('/').filter((segment) => segment !== '');
}

/** Reads the id from `<payPath>/<id>` or `<payPath>/?pid=<id>`; only called once the host is trusted. */
function extractPaymentId(url: URL, prefix: string[]): PaymentLinkResult {
  const all = url.pathname.split('/').filter((segment) => segment !== '');
  if (prefix.some((segment, i) => all[i] !== segment)) return notPayment('missing_payment_id');
  const segments = all.slice(prefix.length);
  let candidate: string | null;
  if (segments.length === 1) {
    candidate = safeDecode(segments[0] ?? '');
  } else if (segments.length === 0) {
    candidate = url.searchParams.get('pid');
  } else {
    return notPayment('missing_payment_id');
  }
  if (candidate === null) return notPayment(segments.length === 1 ? 'invalid_payment_id' : 'missing_payment_id');
  if (candidate === '') return notPayment('missing_payment_id');
  if (!isPaymentId(candidate)) return notPayment('invalid_payment_id');
  return { kind: 'payment', paymentId: candidate };
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function notPayment(reason: NotPaymentLinkReason): PaymentLinkResult {
  return { kind: 'not_payment_link', reason };
}
