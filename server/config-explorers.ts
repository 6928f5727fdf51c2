/** Where the dashboard links a payment's transaction: CAIP-2 chain id → URL template with `{txId}`. */
export interface ExplorerConfig {
  explorerTxUrls: Readonly<Record<string, string>>;
}

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;
const PLACEHOLDER = '{txId}';

/**
 * EXPLORER_TX_URLS ("eip155:8453=https://basescan.org/tx/{txId},solana:…=https://solscan.io/tx/{txId}"):
 * each chain's block explorer page of one transaction. Only https, so a link from the dashboard
 * never leaves it for a page that can be altered on the way; `{txId}` exactly once, so the id
 * lands in one place the operator chose. Absent or empty: no links, the id shown as text.
 */
export function parseExplorerConfig(env: NodeJS.ProcessEnv): ExplorerConfig | { problem: string } {
  const raw = env.EXPLORER_TX_URLS?.trim();
  const explorerTxUrls: Record<string, string> = {};
  if (!raw) return { explorerTxUrls };
  for (const entry of raw.split(',')) {
    const at = entry.indexOf('=');
    const chain = entry.slice(0, at).trim();
    const template = entry.slice(at + 1).trim();
    if (at < 0 || !CAIP2.test(chain)) {
      return { problem: `EXPLORER_TX_URLS: "${entry.trim()}" must be <CAIP-2 chain id>=<URL>, e.g. eip155:8453=https://basescan.org/tx/{txId}` };
    }
    if (chain in explorerTxUrls) return { problem: `EXPLORER_TX_URLS names ${chain} twice` };
    if (template.split(PLACEHOLDER).length !== 2) return { problem: `EXPLORER_TX_URLS: the URL of ${chain} must contain {txId} exactly once` };
    if (!isHttpsUrl(template.replace(PLACEHOLDER, 'tx'))) return { problem: `EXPLORER_TX_URLS: the URL of ${chain} must be an https:// URL` };
    explorerTxUrls[chain] = template;
  }
  return { explorerTxUrls };
}

/** An https:// URL with a host and no user or password: safe to publish to anyone (explorer links, wallet RPCs). */
export function isHttpsUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.hostname !== '' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}
