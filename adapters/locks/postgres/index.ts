// Exclusive sections across processes: a PostgreSQL session advisory lock, held on a client of
// the adapter's own small pool for exactly the work's duration. The server releases a session
// lock when its connection ends, so a worker killed with -9 never leaves a key held.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';
import { createInProcessSections } from '../in-process/index.ts';

export interface PostgresSectionsOptions {
  url: string;
  /** Connections for locks (default 4): one per key held at once by this instance. */
  max?: number;
  /** How long a caller may wait for its key, in this process and then on the server (default 30 s). */
  waitMs?: number;
  /** Told when a holder's connection failed while its work ran: exclusion may not have held. */
  onLost?: (key: string, err: Error) => void;
}

/** The advisory lock key of `key`: the first 8 bytes of its SHA-256, as PostgreSQL's signed bigint. */
export function advisoryKeyOf(key: string): bigint {
  return createHash('sha256').update(key).digest().readBigInt64BE(0);
}

const LOCK_TIMEOUT = '55P03';

export function createPostgresSections(opts: PostgresSectionsOptions): ExclusiveSections {
  const waitMs = opts.waitMs ?? 30_000;
  const pool = new pg.Pool({ connectionString: opts.url, max: opts.max ?? 4, idleTimeoutMillis: 30_000 });
  // An idle client whose connection dies is dropped by the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  // Callers of this instance queue per key here first: their order is kept, and one key never
  // takes more than one connection of the pool.
  const local = createInProcessSections();

  async function holding<T>(key: string, deadline: number, work: () => Promise<T>): Promise<T> {
    const left = () => deadline - Date.now();
    if (left() <= 0) throw waitError(key, waitMs);
    let client: pg.PoolClient;
    try {
      client = await connectWithin(pool, left());
    } catch (err) {
      throw new Error(`exclusive section "${key}": no lock connection within ${waitMs} ms (${(err as Error).message})`, { cause: err });
    }
    let lost: Error | null = null;
    const onError = (err: Error) => {
      lost ??= err;
    };
    client.on('error', onError);
    let locked = false;
    try {
      await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${Math.max(1, left())}ms`]);
      try {
        await client.query('SELECT pg_advisory_lock($1::bigint)', [advisoryKeyOf(key).toString()]);
      } catch (err) {
        if ((err as { code?: string }).code === LOCK_TIMEOUT) throw waitError(key, waitMs);
        lost ??= err as Error;
        throw err;
      }
      locked = true;
      return await work();
    } finally {
      if (locked && !lost) {
        await client.query('SELECT pg_advisory_unlock($1::bigint)', [advisoryKeyOf(key).toString()]).catch((err: Error) => (lost ??= err));
      }
      client.off('error', onError);
      // A connection that failed is closed, never handed back: the server released its lock with it.
      client.release(lost ?? undefined);
      if (lost && locked) opts.onLost?.(key, lost);
    }
  }

  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const deadline = Date.now() + waitMs;
      return local.run(key, () => holding(key, deadline, work));
    },
    async close() {
      await local.close();
      await pool.end();
    },
  };
}

function waitError(key: string, waitMs: number): Error {
  return new Error(`exclusive section "${key}": not acquired within ${waitMs} ms (another holder kept it)`);
}

async function connectWithin(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  const connecting = pool.connect();
  try {
    return await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), ms);
      }),
    ]);
  } catch (err) {
    // A connection that arrives after the wait ended goes back to the pool unused.
    void connecting.then(
      (c) => c.release(),
      () => {},
    );
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
