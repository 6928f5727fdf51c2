/**
 * Change notifications for payments, so a request waiting on a payment (long-poll on confirm and
 * status) is woken when it changes instead of reading the database on a timer. Storage emits
 * them as part of the unit that changes the payment; an adapter delivers them to the waiters of
 * this process. No connection type crosses this port: each adapter owns its one listener and
 * fans out to its subscribers in memory.
 */

/**
 * Why a subscriber is woken:
 * - `changed`: a change of this payment committed (a status transition or a refund);
 * - `resync`: notifications may have been missed (the listener reconnected): read again;
 * - `closing`: the process is shutting down: answer with the current state now.
 */
export type PaymentChangeSignal = 'changed' | 'resync' | 'closing';

export interface PaymentChangesPort {
  /**
   * Calls `onSignal` for every change of the payment committed after this call, until the
   * returned function is called. In memory only (no I/O, no timer), so thousands of waiters
   * cost a map entry each. A subscriber may hear a change more than once, or one it already
   * read: it re-reads and compares. After `close`, `onSignal('closing')` comes at once.
   */
  subscribe(paymentId: string, onSignal: (signal: PaymentChangeSignal) => void): () => void;
  /** Tells every subscriber `closing`, then releases the listener. */
  close(): Promise<void>;
}
