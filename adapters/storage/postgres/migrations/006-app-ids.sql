-- Public app ids (`app_…`) authenticate wallets on gateway operations together with a Client-Id.
ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_scope_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scope_check CHECK (scope IN ('partner', 'wallet', 'app'));
