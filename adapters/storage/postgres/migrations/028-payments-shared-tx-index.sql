-- One buyer transaction may pay several direct-transfer payments (a batch wallet's transfers, each
-- with its own tag): the late-funds watcher records it on a second payment as shared only when its
-- transfers cover every payment recorded with it, which it reads by (network, tx_id). The unique
-- index of migration 025 holds the unshared rows; this one holds the shared ones, so that read
-- never scans the table.
CREATE INDEX IF NOT EXISTS payments_shared_tx_id ON payments (network, tx_id) WHERE tx_id IS NOT NULL AND tx_shared;
