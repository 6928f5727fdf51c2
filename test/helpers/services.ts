import pg from 'pg';
import { it } from 'vitest';

/**
 * Whether the real servers this suite can use are reachable. When one is absent the suites that
 * need it do not run, and the report says so: the asking test file gets a test marked skipped
 * whose name and note give the reason. Under REQUIRE_SERVICES=1 (set by .ci/run) an absent
 * server fails the file instead.
 *
 * Ask while the file is being collected (at its top level, or in a `describe` body), never in a
 * hook or a test: that is where the skipped entry is registered.
 */
export const requireServices = process.env.REQUIRE_SERVICES === '1';
export const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Services already shown as absent in this test file (vitest loads this module afresh per file). */
const shownAbsent = new Set<string>();

/** Throws under REQUIRE_SERVICES=1; otherwise shows, once per file, a skipped test saying why. */
function absent(service: 'PostgreSQL' | 'Redis', url: string): void {
  const reason = `${service} not reachable at ${withoutPassword(url)}`;
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  if (shownAbsent.has(service)) return;
  shownAbsent.add(service);
  it(`the suites on ${service} (skipped: ${reason}; set REQUIRE_SERVICES=1 to fail instead)`, (ctx) => ctx.skip(reason));
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

let postgresUp: Promise<boolean> | undefined;

/** True when PostgreSQL answers; throws when it does not and services are required. */
export async function postgresAvailable(): Promise<boolean> {
  postgresUp ??= reachable(postgresUrl);
  const up = await postgresUp;
  if (!up) absent('PostgreSQL', postgresUrl);
  return up;
}

/** A schema name unique to this test file and run, so parallel suites never share tables. */
export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

let redisUp: Promise<boolean> | undefined;

async function redisReachable(url: string): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** True when Redis answers PING; throws when it does not and services are required. */
export async function redisAvailable(): Promise<boolean> {
  redisUp ??= redisReachable(redisUrl);
  const up = await redisUp;
  if (!up) absent('Redis', redisUrl);
  return up;
}
