/** What the data-collection web view reported through its script bridge. */
export type BridgeMessage = { type: 'complete' } | { type: 'error'; message?: string };

/**
 * Reads a message posted by the data-collection page (React Native WebView `onMessage`,
 * iOS message handler or `window.postMessage`). Accepts the bare strings `IC_COMPLETE` /
 * `IC_ERROR`, their JSON-object form, or an already parsed object. Anything else is `null`
 * so unrelated messages on the same channel are ignored rather than misread.
 */
export function parseBridgeMessage(data: unknown): BridgeMessage | null {
  let value = data;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === 'IC_COMPLETE') return { type: 'complete' };
    if (text === 'IC_ERROR') return { type: 'error' };
    if (!text.startsWith('{')) return null;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (record.type === 'IC_COMPLETE') return { type: 'complete' };
  if (record.type !== 'IC_ERROR') return null;
  const detail = typeof record.message === 'string' ? record.message : typeof record.error === 'string' ? record.error : undefined;
  return detail === undefined ? { type: 'error' } : { type: 'error', message: detail };
}

/**
 * For `window.postMessage` hosts: only trust messages whose origin is the collection page's
 * own origin, so another frame cannot fake completion.
 */
export function isFromCollectionPage(origin: string, collectUrl: string): boolean {
  try {
    return new URL(collectUrl).origin === origin;
  } catch {
    return false;
  }
}
