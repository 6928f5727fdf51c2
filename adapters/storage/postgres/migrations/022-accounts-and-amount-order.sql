-- Dashboard accounts (issue 30 item 5). An e-mail address is unique within a partner, no longer
-- across partners: the invite form's "already exists" told an owner which addresses had accounts
-- at other partners, and an owner could claim an address first so no other partner could add that
-- person. Sign-in looks the address up in every partner (the index below) and signs in to the
-- account whose password matches.
DROP INDEX dashboard_users_email;
CREATE UNIQUE INDEX dashboard_users_partner_email ON dashboard_users (partner_id, lower(email));
CREATE INDEX dashboard_users_email ON dashboard_users (lower(email), created_at);
-- A temporary password (an invitation's, the key tool's) ends here and must be replaced at the
-- first sign-in; null: a password its user chose. Nullable without a default: a catalog-only change.
ALTER TABLE dashboard_users ADD COLUMN password_expires_at timestamptz;

-- The amount sort (issue 30 item 9) groups payments by price unit before the value: a token's
-- base units and a currency's minor units do not compare. The keyset order of payment-sql.ts's
-- AMOUNT_KEY, expression for expression; it replaces the index on the raw value.
CREATE INDEX payments_partner_amount_by_unit ON payments (partner_id, (fiat_currency IS NULL), (COALESCE(fiat_currency, price_asset) COLLATE "C"), fiat_value, id);
DROP INDEX payments_partner_amount;
