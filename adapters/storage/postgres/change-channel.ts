/**
 * The channel a payment's changes are announced on, with the payment id as the payload. The
 * storage issues the NOTIFY in the transaction that changes the payment, so PostgreSQL delivers
 * it exactly when that commits (never for a rollback); adapters/payment-changes/postgres listens.
 * One channel for the whole database: ids are unique, so a listener that also hears another
 * schema's payments (tests share a database) wakes nobody with them.
 */
export const PAYMENT_CHANGES_CHANNEL = 'mps_payment_changes';

/** A RETURNING item that announces the returned payment: no extra round trip in the transaction. */
export const NOTIFY_RETURNED_PAYMENT = `pg_notify('${PAYMENT_CHANGES_CHANNEL}', id) AS change_notified`;
