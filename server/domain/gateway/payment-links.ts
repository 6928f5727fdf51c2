/**
 * A gateway `{id}` may be the payment id or, URL-encoded, any payment link form of the
 * interface: `https://{payHost}/<id>`, `https://{payHost}/?pid=<id>`, `wc:…@2?pay=<encoded
 * query URL>`. Only the pay host and its subdomains are trusted, and the host is checked before
 * the id is taken.
 */
const PAYMENT_ID = /^pay_[0-9A-Za-z]{1,64}$/;

function trusted(host: string, payHost: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === payHost || h.endsWith(`.${payHost}`);
}

function fromUrl(text: string, payHost: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !trusted(url.hostname, payHost)) return null;
  const pid = url.searchParams.get('pid');
  if (pid) return PAYMENT_ID.test(pid) ? pid : null;
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  return PAYMENT_ID.test(last) ? last : null;
}

function fromLink(raw: string, payHost: string): string | null {
  if (PAYMENT_ID.test(raw)) return raw;
  if (raw.startsWith('wc:')) {
    const q = raw.indexOf('?');
    const pay = q >= 0 ? new URLSearchParams(raw.slice(q + 1)).get('pay') : null;
    return pay ? fromUrl(pay, payHost) : null;
  }
  return fromUrl(raw, payHost);
}

/** Some wallet SDKs percent-encode the link and their HTTP layer encodes the path again. */
const MAX_DECODES = 2;

/**
 * The payment id named by `raw` (the path segment as the router decoded it once), or null when
 * it names none (or an untrusted host). A link still percent-encoded is decoded again, at most
 * twice, and checked afresh each time: decoding never skips the host check.
 */
export function resolvePaymentRef(raw: string, payHost: string): string | null {
  let text = raw;
  for (let decodes = 0; ; decodes++) {
    const id = fromLink(text, payHost);
    if (id || decodes === MAX_DECODES || !/%[0-9A-Fa-f]{2}/.test(text)) return id;
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
}
