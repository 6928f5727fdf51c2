-- Keys that hold a role's limits (issue 30 item 1): a partner key may carry the permissions it was
-- limited to (null: all, as keys made before, by the key tool or by an owner), and the dashboard
-- user who made it, so removing or demoting that user revokes what they can no longer hold.
-- Nullable without defaults: catalog-only changes.
ALTER TABLE api_keys ADD COLUMN permissions text[];
ALTER TABLE api_keys ADD COLUMN created_by text;
CREATE INDEX api_keys_created_by ON api_keys (created_by) WHERE created_by IS NOT NULL AND revoked_at IS NULL;
