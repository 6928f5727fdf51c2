/**
 * The baselines: bare Express handlers doing the one database operation each service endpoint
 * must do at the least — one INSERT for create, one primary-key SELECT for status — against the
 * same PostgreSQL, with the same pool size. The ratio service/baseline is the cost of everything
 * else (auth, versions, validation, idempotency, state rules).
 */
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import express from 'express';
import pg from 'pg';

const [url, schema] = [process.argv[2]!, process.argv[3]!];
const pool = new pg.Pool({ connectionString: url, max: 20, options: `-c search_path=${schema}` });
await pool.query(`CREATE TABLE IF NOT EXISTS baseline_payments (
  id text PRIMARY KEY, merchant_id text NOT NULL, reference_id text NOT NULL, fiat_currency text NOT NULL,
  fiat_value numeric(78,0) NOT NULL, status text NOT NULL, expires_at timestamptz NOT NULL, created_at timestamptz NOT NULL)`);

const app = express();
app.post('/v1/payments', express.json(), async (req, res) => {
  const id = `pay_${randomUUID().replaceAll('-', '')}`;
  const now = Date.now();
  const expires = new Date(now + 300_000);
  const body = req.body as { amount: { unit: string; value: string }; referenceId: string };
  await pool.query('INSERT INTO baseline_payments VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
    id,
    req.get('Merchant-Id'),
    body.referenceId,
    body.amount.unit.slice(8),
    body.amount.value,
    'requires_action',
    expires,
    new Date(now),
  ]);
  res.status(201).json({
    paymentId: id,
    gatewayUrl: `https://pay.bench.test/${id}`,
    status: 'requires_action',
    isFinal: false,
    pollInMs: 2000,
    expiresAt: Math.floor(expires.getTime() / 1000),
  });
});
app.get('/v1/payments/:id/status', async (req, res) => {
  const { rows } = await pool.query<{ status: string }>('SELECT status FROM baseline_payments WHERE id = $1', [req.params.id]);
  if (!rows[0]) return void res.status(404).json({ message: 'Not found', code: 'payment_not_found' });
  res.json({ status: rows[0].status, isFinal: false, pollInMs: 2000 });
});
const server = app.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port} {}`));
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
