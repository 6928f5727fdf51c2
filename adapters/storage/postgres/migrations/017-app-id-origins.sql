-- The web origins an App-Id may be used from (exact scheme://host[:port], checked by the service).
-- Nullable without a default (a catalog-only change): null, like an empty list, allows any origin.
ALTER TABLE api_keys ADD COLUMN allowed_origins text[];
