-- A relay claims unrelayed jobs for a lease before handing them to the queue, so relays in several
-- processes take disjoint sets; a relay that dies holding a claim only delays its jobs until the
-- lease runs out, after which another relay takes them.
ALTER TABLE outbox_jobs ADD COLUMN IF NOT EXISTS relay_claimed_until timestamptz;
