import pg from 'pg';

export interface ServerListenerOptions {
  url: string;
  channel: string;
  applicationName: string;
  /** Backoff between reconnect attempts: from minMs, doubling up to maxMs. */
  reconnect: { minMs: number; maxMs: number };
  onPayload(payload: string): void;
  /** After a lost connection is back and listening again: notifications in between are lost. */
  onReconnected(): void;
  onError(err: unknown): void;
}

/**
 * One connection of its own that LISTENs on a PostgreSQL server, kept up for the life of the
 * process. A LISTEN belongs to its session, so when the connection drops (a restart, a failover,
 * an administrator's pg_terminate_backend) it reconnects with backoff and listens again, then
 * reports it, since whatever was notified meanwhile is gone. Resolves once listening, so a
 * process that cannot hear changes fails at start rather than leaving waiters to their bounds.
 */
export async function startServerListener(opts: ServerListenerOptions): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | null = null;
  let closing = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let delay = opts.reconnect.minMs;

  async function connect(): Promise<pg.Client> {
    // TCP keepalive probes from 10 s of silence: a peer gone without a FIN (a partition) ends the
    // connection, and so starts the reconnect, instead of leaving a listener that hears nothing.
    const c = new pg.Client({ connectionString: opts.url, application_name: opts.applicationName, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    c.on('notification', (m) => {
      if (m.channel === opts.channel && m.payload) opts.onPayload(m.payload);
    });
    // Without a listener an 'error' event would crash the process; 'end' follows it.
    c.on('error', (err) => opts.onError(err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${opts.channel}`);
    } catch (err) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
      throw err;
    }
    return c;
  }

  function lost(c: pg.Client) {
    if (closing || client !== c) return;
    client = null;
    scheduleReconnect();
  }

  function scheduleReconnect() {
    // Nothing awaits an attempt: it reports its own failure (onError) and schedules the next one.
    retryTimer = setTimeout(() => void reconnect(), delay);
  }

  async function reconnect() {
    retryTimer = null;
    try {
      const c = await connect();
      if (closing) return void (await c.end().catch(() => {}));
      client = c;
      delay = opts.reconnect.minMs;
      opts.onReconnected();
    } catch (err) {
      opts.onError(err);
      delay = Math.min(delay * 2, opts.reconnect.maxMs);
      if (!closing) scheduleReconnect();
    }
  }

  client = await connect();
  return {
    async close() {
      closing = true;
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
