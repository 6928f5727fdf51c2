import type { ActionResult } from '../../../clients/wallet/src/index.ts';

/** A payment the wallet has acted on whose confirm may not have reached the service yet. */
export interface PendingConfirm {
  optionId: string;
  results: ActionResult[];
}

const key = (paymentId: string) => `mps-wallet-pending:${paymentId}`;

/**
 * Kept in localStorage from the moment the wallet answered until the service has the confirm: a
 * direct transfer is on chain once sent, so a tab closed or reloaded before its confirm must not
 * lose it. The page confirms it again on its next load (confirm is idempotent on the service).
 * Storage that throws (private mode, disabled) only loses this safety net, never the payment:
 * a tagged transfer is still found on chain by the late-funds watcher.
 */
export function savePending(paymentId: string, pending: PendingConfirm): void {
  try {
    window.localStorage.setItem(key(paymentId), JSON.stringify(pending));
  } catch {
    /* see above: best effort */
  }
}

export function loadPending(paymentId: string): PendingConfirm | null {
  try {
    const raw = window.localStorage.getItem(key(paymentId));
    const value = raw ? (JSON.parse(raw) as Partial<PendingConfirm>) : null;
    return value && typeof value.optionId === 'string' && Array.isArray(value.results) ? { optionId: value.optionId, results: value.results } : null;
  } catch {
    return null;
  }
}

export function clearPending(paymentId: string): void {
  try {
    window.localStorage.removeItem(key(paymentId));
  } catch {
    /* nothing kept */
  }
}
