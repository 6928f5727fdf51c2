import { isPaymentId, parsePaymentLink } from '../../clients/wallet/src/index.ts';
import { UsageError } from './errors.ts';

/**
 * The payment id in whatever the user pasted: a bare id, `https://<pay host>/<id>`,
 * `…/?pid=<id>`, a `wc:…?pay=<link>` URI, or a link under a path such as the default
 * `http://localhost:3000/pay/<id>`.
 *
 * Why the pay host defaults to the link's own host: this is a sandbox tool that pays links the
 * user created a moment ago, so there is no configured host to trust; a real wallet passes its
 * own (`--pay-host`) and the SDK then refuses look-alike hosts. `http:` is accepted because the
 * sandbox runs on localhost.
 */
export function paymentIdFromLink(input: string, payHost?: string): string {
  const text = input.trim();
  if (isPaymentId(text)) return text;
  const web = innerWebLink(text);
  const host = payHost ?? hostOf(web);
  if (host === null) throw new UsageError(`not a payment link or payment id: ${JSON.stringify(input)}`);
  // The link's own path up to the id is the pay path (`/pay` for the local default).
  const payPath = web === null ? undefined : new URL(web).pathname.replace(/\/[^/]*\/?$/, '') || undefined;
  let parsed: ReturnType<typeof parsePaymentLink>;
  try {
    parsed = parsePaymentLink(text, { payHost: host, allowInsecureHttp: true, ...(payPath ? { payPath } : {}) });
  } catch (error) {
    throw new UsageError(`--pay-host: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed.kind === 'payment') return parsed.paymentId;
  throw new UsageError(`not a payment link (${parsed.reason}): ${JSON.stringify(input)}${parsed.reason === 'untrusted_host' ? ` is not on ${host}` : ''}`);
}

/** The http(s) link itself, or the one a `wc:` URI carries in `pay`. */
function innerWebLink(text: string): string | null {
  if (/^https?:\/\//i.test(text)) return text;
  if (/^wc:/i.test(text)) {
    const query = text.includes('?') ? text.slice(text.indexOf('?') + 1) : '';
    const pay = new URLSearchParams(query).get('pay');
    return pay !== null && /^https?:\/\//i.test(pay.trim()) ? pay.trim() : null;
  }
  return null;
}

function hostOf(link: string | null): string | null {
  if (link === null) return null;
  try {
    return new URL(link).host; // with the port: the SDK compares it too
  } catch {
    return null;
  }
}
