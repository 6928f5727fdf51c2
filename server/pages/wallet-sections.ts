import type { AssetRegistry } from '../domain/assets.ts';
import type { ChainRegistry } from '../ports/chains.ts';
import type { PageRead } from './payment-data.ts';
import { renderSolanaPaySection, solanaPayOffer } from './solana-pay.ts';
import { renderWalletLinksSection } from './wallet-links.ts';

/**
 * The payment page's ways to pay from a wallet the buyer already has, besides the gateway link:
 * Solana Pay (solana-pay.ts) and "open in your wallet" links for phones (wallet-links.ts). Only
 * while the payment waits for payment, and only for the chains its accepted assets are on.
 */
export async function renderWalletSections(deps: { assets: AssetRegistry; chains?: ChainRegistry; payBaseUrl: string }, found: PageRead): Promise<string> {
  const p = found.payment;
  if (p.status !== 'requires_action') return '';
  const namespaces = new Set<string>();
  for (const s of found.settlements) {
    const a = deps.assets.get(s.asset);
    if (a && (p.price.kind !== 'token' || p.price.asset === a.id)) namespaces.add(a.parsed.chain.namespace);
  }
  const offer = solanaPayOffer(deps, p, found);
  return [offer ? await renderSolanaPaySection(offer) : '', renderWalletLinksSection(`${deps.payBaseUrl}/${p.id}`, namespaces)].join('\n');
}
