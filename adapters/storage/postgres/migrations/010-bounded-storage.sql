-- Expired quotes and idempotency keys are purged in bounded batches by the maintenance job; these
-- let each batch find its rows by deadline instead of scanning the table. The reuse of a live
-- quote (options called again) reads a payment's quotes through payment_quotes_payment.
CREATE INDEX IF NOT EXISTS payment_quotes_deadline ON payment_quotes (deadline);
