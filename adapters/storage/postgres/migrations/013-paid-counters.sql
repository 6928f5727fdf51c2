-- The stats of a payment list (revenue per currency, transactions and distinct customers of the
-- paid payments: succeeded and not refunded) kept as counters, so the first page of a listing no
-- longer reads every matching payment. A trigger keeps them in the same transaction as every
-- insert, status change, refund and delete of a payment, whatever the code path that writes it.
--
-- paid_totals: per partner × merchant × fiat currency ('' for token-priced payments, which count
-- as transactions but have no fiat revenue).
-- paid_buyers: per partner × merchant × buyer account, how many paid payments; merchant '' is the
-- partner as a whole. A row exists only while its count is positive.
-- paid_customers: how many paid_buyers rows each (partner, merchant) has, merchant '' likewise.

-- No payment may change between the backfill's read and the trigger's creation.
LOCK TABLE payments IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE paid_totals (
  partner_id   text NOT NULL,
  merchant_id  text NOT NULL,
  currency     text NOT NULL,
  transactions bigint NOT NULL,
  revenue      numeric NOT NULL,
  PRIMARY KEY (partner_id, merchant_id, currency)
);

CREATE TABLE paid_buyers (
  partner_id    text NOT NULL,
  merchant_id   text NOT NULL,
  buyer_account text NOT NULL,
  payments      bigint NOT NULL,
  PRIMARY KEY (partner_id, merchant_id, buyer_account)
);

CREATE TABLE paid_customers (
  partner_id  text NOT NULL,
  merchant_id text NOT NULL,
  customers   bigint NOT NULL,
  PRIMARY KEY (partner_id, merchant_id)
);

-- Adds (d = 1) or removes (d = -1) one paid payment. Rows are taken in one order (totals, the
-- merchant's buyer and count, then the partner's), so two of these cannot deadlock each other.
CREATE FUNCTION paid_counters_apply(p_partner text, p_merchant text, p_currency text, p_value numeric, p_buyer text, d integer) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  scope text;
  n bigint;
BEGIN
  INSERT INTO paid_totals AS t VALUES (p_partner, p_merchant, COALESCE(p_currency, ''), d, CASE WHEN p_currency IS NULL THEN 0 ELSE d * p_value END)
  ON CONFLICT (partner_id, merchant_id, currency) DO UPDATE SET transactions = t.transactions + EXCLUDED.transactions, revenue = t.revenue + EXCLUDED.revenue;
  IF p_buyer IS NULL THEN
    RETURN;
  END IF;
  FOREACH scope IN ARRAY ARRAY[p_merchant, ''] LOOP
    INSERT INTO paid_buyers AS b VALUES (p_partner, scope, p_buyer, d)
    ON CONFLICT (partner_id, merchant_id, buyer_account) DO UPDATE SET payments = b.payments + EXCLUDED.payments
    RETURNING payments INTO n;
    IF d = 1 AND n = 1 THEN
      INSERT INTO paid_customers AS c VALUES (p_partner, scope, 1)
      ON CONFLICT (partner_id, merchant_id) DO UPDATE SET customers = c.customers + 1;
    ELSIF d = -1 AND n = 0 THEN
      DELETE FROM paid_buyers WHERE partner_id = p_partner AND merchant_id = scope AND buyer_account = p_buyer;
      UPDATE paid_customers SET customers = customers - 1 WHERE partner_id = p_partner AND merchant_id = scope;
    END IF;
  END LOOP;
END $$;

CREATE FUNCTION paid_counters_track() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  was_paid boolean := TG_OP <> 'INSERT' AND OLD.status = 'succeeded' AND OLD.refunded_at IS NULL;
  is_paid boolean := TG_OP <> 'DELETE' AND NEW.status = 'succeeded' AND NEW.refunded_at IS NULL;
BEGIN
  IF was_paid AND is_paid AND (OLD.partner_id, OLD.merchant_id, OLD.fiat_currency, OLD.fiat_value, OLD.buyer_account)
      IS NOT DISTINCT FROM (NEW.partner_id, NEW.merchant_id, NEW.fiat_currency, NEW.fiat_value, NEW.buyer_account) THEN
    RETURN NULL;
  END IF;
  IF was_paid THEN
    PERFORM paid_counters_apply(OLD.partner_id, OLD.merchant_id, OLD.fiat_currency, OLD.fiat_value, OLD.buyer_account, -1);
  END IF;
  IF is_paid THEN
    PERFORM paid_counters_apply(NEW.partner_id, NEW.merchant_id, NEW.fiat_currency, NEW.fiat_value, NEW.buyer_account, 1);
  END IF;
  RETURN NULL;
END $$;

-- Backfill from the payments already paid.
INSERT INTO paid_totals
SELECT partner_id, merchant_id, COALESCE(fiat_currency, ''), count(*), COALESCE(sum(fiat_value) FILTER (WHERE fiat_currency IS NOT NULL), 0)
FROM payments WHERE status = 'succeeded' AND refunded_at IS NULL
GROUP BY 1, 2, 3;

INSERT INTO paid_buyers
SELECT partner_id, merchant_id, buyer_account, count(*)
FROM payments WHERE status = 'succeeded' AND refunded_at IS NULL AND buyer_account IS NOT NULL
GROUP BY 1, 2, 3;

INSERT INTO paid_buyers
SELECT partner_id, '', buyer_account, sum(payments) FROM paid_buyers GROUP BY 1, 3;

INSERT INTO paid_customers
SELECT partner_id, merchant_id, count(*) FROM paid_buyers GROUP BY 1, 2;

-- Only writes that involve a paid payment call the function: creating a payment, a quote, a tx id
-- or any change of an unpaid one runs no PL/pgSQL at all.
CREATE TRIGGER payments_paid_counters_insert AFTER INSERT ON payments
FOR EACH ROW WHEN (NEW.status = 'succeeded' AND NEW.refunded_at IS NULL) EXECUTE FUNCTION paid_counters_track();
CREATE TRIGGER payments_paid_counters_update AFTER UPDATE ON payments
FOR EACH ROW WHEN ((OLD.status = 'succeeded' AND OLD.refunded_at IS NULL) OR (NEW.status = 'succeeded' AND NEW.refunded_at IS NULL)) EXECUTE FUNCTION paid_counters_track();
CREATE TRIGGER payments_paid_counters_delete AFTER DELETE ON payments
FOR EACH ROW WHEN (OLD.status = 'succeeded' AND OLD.refunded_at IS NULL) EXECUTE FUNCTION paid_counters_track();

-- Stats of a creation-time range cannot come from the counters (distinct buyers do not add up
-- across days): they read the paid payments of the range, and only those, from this index alone.
CREATE INDEX payments_paid_created ON payments (partner_id, created_at) INCLUDE (merchant_id, fiat_currency, fiat_value, buyer_account)
WHERE status = 'succeeded' AND refunded_at IS NULL;
