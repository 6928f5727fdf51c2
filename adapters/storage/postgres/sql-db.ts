import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * The one seam between the repositories and a PostgreSQL engine: the same SQL runs on a server
 * through `pg` and embedded on PGlite. Both answer int8 as bigint and numeric as string, so
 * amounts and counters never pass through a float.
 */
export interface SqlClient {
  /**
   * `name` makes it a named prepared statement on a server: parsed and planned once per
   * connection instead of per call, which on the hot paths costs more than the query itself.
   */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[], name?: string): Promise<{ rows: R[]; rowCount: number }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlDb extends SqlClient {
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The pool's connections (open, idle) and queries waiting for one; null without a pool (PGlite: one in-process engine). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * How to hear this database's NOTIFY (adapters/payment-changes/postgres): the embedded engine
   * delivers them in-process; a server's arrive on a connection of the listener's own, outside
   * the pool, since a LISTEN holds its connection for good.
   */
  readonly notifications: { engine: 'pglite'; listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> } | { engine: 'server'; url: string };
}

const INT8_OID = 20;

/**
 * Query parameters as they go to either engine: a Date is sent as its ISO instant, and an invalid
 * one is refused by name. Why here rather than in pg: pg formats a Date's UTC offset with a
 * floating-point `%`, which a native library that leaves the x87 FPU dirty turns into
 * "…+00:NaN" (adapters/sandbox/solana/x87.ts), and it sends an invalid Date on as "NaN-NaN-…",
 * which PostgreSQL refuses with an error naming neither the field nor the cause.
 */
function sqlParams(params: unknown[] | undefined): unknown[] {
  if (!params) return [];
  // Most statements carry no Date: they pass as they are, without a copy on the hot path.
  if (!params.some((p) => p instanceof Date)) return params;
  return params.map((p, i) => {
    if (!(p instanceof Date)) return p;
    if (Number.isNaN(p.getTime())) throw new RangeError(`storage refuses an invalid Date as query parameter $${i + 1}`);
    return p.toISOString();
  });
}

export function createPgDb(opts: { url: string; schema?: string; max?: number }): SqlDb {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID ? (v: string) => BigInt(v) : (pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's connection error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const run = async <R>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[], name?: string) => {
    const r = name ? await named(client, sql, sqlParams(params), name) : await client.query(sql, sqlParams(params));
    return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
  };
  // pg copies a `{ name, text, values }` config property by property through descriptors, which
  // was 5 % of the status endpoint's CPU; a Query built from the text alone skips that copy.
  const named = (client: pg.Pool | pg.PoolClient, sql: string, params: unknown[], name: string) =>
    new Promise<pg.QueryResult>((resolve, reject) => {
      const q = new pg.Query(sql, params);
      (q as unknown as { name: string }).name = name;
      (client.query as (q: unknown, cb: (err: Error | null, r: pg.QueryResult) => void) => void).call(client, q, (err, r) => (err ? reject(err) : resolve(r)));
    });
  return {
    query: (sql, params, name) => run(pool, sql, params, name),
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // pg-pool takes its idle error listener off a client it hands out, so a connection cut
      // while this transaction waits between statements (a server restart) would be an
      // unhandled 'error' event and kill the process. Keep it: the next statement fails, and the
      // broken connection is discarded instead of going back to the pool.
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: (sql, params, name) => run(client, sql, params, name),
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    notifications: { engine: 'server', url: opts.url },
  };
}

/**
 * A data directory is locked to this process for as long as the database is open (data-dir-lock.ts):
 * two engines on one directory lose writes. Memory-only databases need no lock. `loadDataDir` starts a
 * memory-only database from a copy of another one (PGlite's `dumpDataDir`), skipping initdb: the tests'
 * migrated template, a fifth of a fresh start's CPU.
 */
export async function createPgliteDb(opts: { dataDir?: string; loadDataDir?: Blob }): Promise<SqlDb> {
  if (opts.dataDir && opts.loadDataDir) throw new Error('storage: loadDataDir is for a memory-only database, not with dataDir');
  const lock = opts.dataDir ? lockDataDir(opts.dataDir) : undefined;
  let db: PGlite;
  try {
    db = await PGlite.create(opts.dataDir ? { dataDir: opts.dataDir } : opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  } catch (err) {
    lock?.release();
    throw err;
  }
  const wrap = (c: { query: PGlite['query']; exec: PGlite['exec'] }): SqlClient => ({
    async exec(sql: string) {
      await c.exec(sql);
    },
    async query<R>(sql: string, params?: unknown[]) {
      const r = await c.query<R>(sql, sqlParams(params));
      // PGlite reports affectedRows 0 for a SELECT; count returned rows there, as pg does.
      return { rows: r.rows, rowCount: r.rows.length > 0 ? r.rows.length : (r.affectedRows ?? 0) };
    },
  });
  return {
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    async close() {
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
    poolStats: () => null,
    notifications: { engine: 'pglite', listen: (channel, onPayload) => db.listen(channel, onPayload) },
  };
}

/** PostgreSQL's unique_violation, as both engines report it. */
export function isUniqueViolation(err: unknown): err is { code: string; constraint?: string; detail?: string } {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
