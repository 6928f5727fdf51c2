/**
 * A process the crash tests SIGKILL. It writes one job to the outbox (PostgreSQL schema or PGlite
 * directory) and then, by mode, stops there, or also claims it as a relay would, or also relays it
 * to an inline queue that has no worker; then prints `ready` and waits to be killed.
 * Env: OUTBOX_DB=pg|pglite, OUTBOX_URL + OUTBOX_SCHEMA or OUTBOX_DIR, OUTBOX_JOB_ID, OUTBOX_MODE.
 */
import { createInlineQueue } from '../../../adapters/queue/inline/index.ts';
import { createPostgresStorage } from '../../../adapters/storage/postgres/index.ts';
import { systemClock } from '../../ports/clock.ts';
import { silentLogger } from '../../ports/logger.ts';
import { createOutboxRelay } from '../outbox-relay.ts';

const env = process.env;
const storage =
  env.OUTBOX_DB === 'pg'
    ? await createPostgresStorage({ url: String(env.OUTBOX_URL), schema: String(env.OUTBOX_SCHEMA) })
    : await createPostgresStorage({ embedded: true, dataDir: String(env.OUTBOX_DIR) });
const id = String(env.OUTBOX_JOB_ID);
const now = new Date();
await storage.jobs.insert([{ id, type: 'crash.effect', payload: { marker: id }, runAt: now, createdAt: now }]);
if (env.OUTBOX_MODE === 'claim') await storage.jobs.claimUnrelayed(10, now);
if (env.OUTBOX_MODE === 'relay-inline') {
  const relay = createOutboxRelay({ storage, queue: createInlineQueue(), clock: systemClock, logger: silentLogger });
  await relay.runOnce();
}
process.stdout.write('ready\n');
setInterval(() => {}, 60_000);
