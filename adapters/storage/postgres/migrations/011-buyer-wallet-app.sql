-- Which wallet app paid: learned from the gateway request that confirmed the payment (the name
-- and icon of the account its wallet key or App-Id belongs to) and kept with the payment, so lists
-- and details can name it after the key is gone or the account renamed.
ALTER TABLE partners ADD COLUMN icon_url text;
ALTER TABLE payments ADD COLUMN buyer_provider_name text;
ALTER TABLE payments ADD COLUMN buyer_provider_icon text;
