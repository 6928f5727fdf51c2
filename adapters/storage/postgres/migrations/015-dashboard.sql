-- The partner dashboard: key names and last use, users, server-side sessions, and the audit log.
ALTER TABLE api_keys ADD COLUMN name text;
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

CREATE TABLE dashboard_users (
  id            text PRIMARY KEY,
  partner_id    text NOT NULL REFERENCES partners(id),
  email         text NOT NULL,
  role          text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL
);
-- One user per email across partners: signing in needs the email alone.
CREATE UNIQUE INDEX dashboard_users_email ON dashboard_users (lower(email));
CREATE INDEX dashboard_users_partner ON dashboard_users (partner_id, created_at);

CREATE TABLE dashboard_sessions (
  id_hash      text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES dashboard_users(id) ON DELETE CASCADE,
  partner_id   text NOT NULL,
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

-- Kept at least a year: no job deletes from it.
CREATE TABLE audit_log (
  id            text PRIMARY KEY,
  partner_id    text NOT NULL,
  actor_kind    text NOT NULL CHECK (actor_kind IN ('user', 'api_key')),
  actor_id      text NOT NULL,
  actor_display text NOT NULL,
  action        text NOT NULL,
  target_type   text NOT NULL,
  target_id     text NOT NULL,
  at            timestamptz NOT NULL,
  detail        jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_partner_at ON audit_log (partner_id, at DESC, id DESC);
