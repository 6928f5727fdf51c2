import pg from 'pg';

/**
 * Whether the real servers this suite can use are reachable. A suite that needs one skips with a
 * loud message when it is absent, and fails instead when REQUIRE_SERVICES=1 (set by .ci/run).
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

let postgresUp: Promise<boolean> | undefined;

/** True when PostgreSQL answers; throws when it does not and services are required. */
export async function postgresAvailable(): Promise<boolean> {
  postgresUp ??= reachable(postgresUrl);
  const up = await postgresUp;
  if (!up && requireServices) throw new Error(`REQUIRE_SERVICES=1 but PostgreSQL is not reachable at ${postgresUrl}`);
  if (!up) console.warn(`\n!!! PostgreSQL not reachable at ${postgresUrl}: its suites are SKIPPED (set REQUIRE_SERVICES=1 to fail instead)\n`);
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
  if (!up && requireServices) throw new Error(`REQUIRE_SERVICES=1 but Redis is not reachable at ${redisUrl}`);
  if (!up) console.warn(`\n!!! Redis not reachable at ${redisUrl}: its suites are SKIPPED (set REQUIRE_SERVICES=1 to fail instead)\n`);
  return up;
}
