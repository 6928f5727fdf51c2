// How the doctor prints: one line per check, PASS / WARN / FAIL, the check's name and its reason;
// and what it must never print: a URL's credentials or path (a provider's API key often sits there).

export type Verdict = 'PASS' | 'WARN' | 'FAIL';

export interface CheckResult {
  verdict: Verdict;
  /** e.g. `database`, `rpc eip155:8453`, `relayer eip155:8453`. */
  name: string;
  reason: string;
}

/** `scheme://host[:port]` of a URL, credentials and path dropped; `scheme://…` when it does not parse. */
export function originOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return `${url.slice(0, url.indexOf('://'))}://…`;
  }
}

/** Every URL in a driver's message cut to its origin: RPC URLs carry keys in their paths. */
export const redactUrls = (text: string): string => text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi, (url) => originOf(url));

export function formatLine(r: CheckResult, width: number): string {
  return `${r.verdict}  ${r.name.padEnd(width)}  ${redactUrls(r.reason)}`;
}

export function formatReport(results: CheckResult[]): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const count = (v: Verdict) => results.filter((r) => r.verdict === v).length;
  const summary = `doctor: ${count('PASS')} passed, ${count('WARN')} warnings, ${count('FAIL')} failed`;
  return [...results.map((r) => formatLine(r, width)), summary].join('\n');
}
