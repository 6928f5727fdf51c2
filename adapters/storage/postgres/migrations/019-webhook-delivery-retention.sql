-- Settled webhook deliveries are purged after their retention (WEBHOOK_DELIVERY_RETENTION_DAYS):
-- the maintenance job deletes the oldest first, in bounded batches, through this index.
CREATE INDEX IF NOT EXISTS webhook_deliveries_created ON webhook_deliveries (created_at);
