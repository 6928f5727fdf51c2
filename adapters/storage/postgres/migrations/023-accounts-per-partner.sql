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
