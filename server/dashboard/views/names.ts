import type { AssetInfo, AssetRegistry } from '../../domain/assets.ts';
import { attrs, esc } from '../../pages/html.ts';

// People read networks and assets by name ("USDC on Base"); the ids (CAIP-2, CAIP-19) stay one
// hover away, in the element's title, for whoever needs to paste them.

/** The configured name of a CAIP-2 network (its assets' `networkName`); the id itself when none is known. */
export function networkName(assets: AssetRegistry | AssetInfo[], caip2: string): string {
  const all = Array.isArray(assets) ? assets : assets.all();
  return all.find((a) => `${a.parsed.chain.namespace}:${a.parsed.chain.reference}` === caip2)?.networkName ?? caip2;
}

/** "USDC on Sandbox EVM" for a registered CAIP-19 id; the id itself otherwise. */
export function assetName(assets: AssetRegistry | AssetInfo[], caip19: string): string {
  const all = Array.isArray(assets) ? assets : assets.all();
  const a = all.find((x) => x.id === caip19);
  return a ? `${a.symbol} on ${a.networkName}` : caip19;
}

/** A name with its id on hover. */
export const named = (name: string, id: string) => (name === id ? `<code>${esc(id)}</code>` : `<span${attrs({ title: id })}>${esc(name)}</span>`);
