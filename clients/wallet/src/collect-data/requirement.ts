import type { CollectData, PaymentOption, PaymentOptions } from '../gateway/types.ts';

export type CollectionRequirement = { needed: true; url: string; schema: unknown } | { needed: false; reason: 'not_for_this_option' | 'none_needed' };

/**
 * Applies the interface's table to the chosen option: the response-level `collectData` says
 * some option may need buyer data, the option's own `collectData` says whether this one does.
 * The option's entry wins when present (its URL is scoped to the option's account), even if
 * the response-level entry is missing, because confirming without it would be refused.
 */
export function collectionRequirement(response: Pick<PaymentOptions, 'collectData'>, option: Pick<PaymentOption, 'collectData'>): CollectionRequirement {
  const own: CollectData | null | undefined = option.collectData;
  if (own != null) return { needed: true, url: own.url, schema: own.schema };
  return { needed: false, reason: response.collectData != null ? 'not_for_this_option' : 'none_needed' };
}
