-- The partner's display time zone (an IANA name, checked by the service), set from the dashboard's
-- settings. Nullable without a default (a catalog-only change): null shows times in UTC, as before.
ALTER TABLE partners ADD COLUMN time_zone text;
