-- Payments priced in a token (amount unit `caip19/<asset>`): the price's asset is price_asset and
-- its value, in the token's base units, is fiat_value (the column holds the price in its unit's
-- smallest units either way, so sorting by amount and its index stay as they are). Exactly one
-- of fiat_currency and price_asset names the unit.
ALTER TABLE payments ADD COLUMN price_asset text;
ALTER TABLE payments ALTER COLUMN fiat_currency DROP NOT NULL;
ALTER TABLE payments ADD CONSTRAINT payments_price_unit CHECK ((fiat_currency IS NULL) <> (price_asset IS NULL));
