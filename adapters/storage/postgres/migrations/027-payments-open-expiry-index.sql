-- Expiry without a job per payment (issue 33): every process that runs jobs sweeps the payments
-- whose deadline has passed (server/domain/payments/expiry-sweep.ts). This index holds only the
-- payments still open for payment, ordered by their deadline, so a sweep reads the due ones (and
-- the next deadline) without scanning the table; a payment leaves it when its status changes.
CREATE INDEX IF NOT EXISTS payments_open_by_expiry ON payments (expires_at, id) WHERE status = 'requires_action';
