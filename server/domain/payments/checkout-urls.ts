import type { ValidationIssue } from '../../errors.ts';

/** Hosts that can only be the developer's own machine: the one place plain http is tolerated. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why the preview `checkout` redirect URLs are refused, one issue per bad field. The buyer's
 * browser is sent there from our page once the payment is final, so they must be HTTPS (as the
 * reference requires): a plain-http return page could be rewritten in transit into a fake
 * "payment received". `http://` to a loopback host is allowed when `allowLoopbackHttp` (sandbox
 * mode), so a shop running on a laptop can try the redirect without a certificate.
 */
export function checkoutUrlIssues(checkout: { successUrl: string; errorUrl: string }, allowLoopbackHttp: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const key of ['successUrl', 'errorUrl'] as const) {
    const field = `checkout.${key}`;
    let url: URL;
    try {
      url = new URL(checkout[key]);
    } catch {
      issues.push({ field, message: 'must be an absolute https:// URL' });
      continue;
    }
    if (url.protocol === 'https:' && url.hostname) continue;
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) {
      if (!allowLoopbackHttp) issues.push({ field, message: 'must be an https:// URL (http:// to localhost is accepted in sandbox mode only)' });
      continue;
    }
    issues.push({ field, message: allowLoopbackHttp ? 'must be an https:// URL (or http:// to localhost, 127.0.0.1 or [::1] in sandbox mode)' : 'must be an https:// URL' });
  }
  return issues;
}
