-- A replayed answer must be the first answer byte for byte. jsonb keeps values but reorders object
-- keys (shorter keys first), so the stored answer is the JSON text the first answer was sent as.
-- Answers stored before this keep jsonb's order; they are purged with their keys within a day.
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE text USING response_body::text;
