// The fault schedule, run during the load: each fault at its offset, one at a time, with a
// progress line (elapsed time since the suite started) when it starts and when it is over.
import { healthy, until, type Proc } from './cluster.ts';
import type { LoadStats } from './load.ts';
import type { Receiver } from './receiver.ts';
import type { Postgres, Redis } from './services.ts';

export interface Targets {
  apis: { proc: Proc; base: string }[];
  workers: Proc[];
  postgres: Postgres;
  redis: Redis;
  receiver: Receiver;
  stats: LoadStats;
  /** Payments in `processing`: a worker is submitting or following their transfer. */
  submissionsInFlight(): Promise<number>;
}

interface Fault {
  atMs: number;
  name: string;
  run(t: Targets, log: (line: string) => void): Promise<void>;
}

/** The receiver is down this long: deliveries meanwhile fail and must be retried later. */
export const RECEIVER_DOWN_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const FAULTS: Fault[] = [
  {
    atMs: 15_000,
    name: 'kill -9 API process 1, start it again after 3 s',
    async run(t, log) {
      const { proc, base } = t.apis[0]!;
      await proc.kill9();
      await sleep(3000);
      proc.start();
      await until('API process 1 to be healthy again', () => healthy(base), 60_000);
      log('API process 1 healthy again');
    },
  },
  {
    atMs: 30_000,
    name: 'kill -9 worker 1 while submissions are in flight, start it again',
    async run(t, log) {
      let inFlight = 0;
      await until('a payment in processing', async () => (inFlight = await t.submissionsInFlight()) > 0, 20_000);
      log(`${inFlight} payment(s) processing, ${t.stats.confirmsInFlight} confirm(s) in flight`);
      await t.workers[0]!.kill9();
      await sleep(1000);
      t.workers[0]!.start();
    },
  },
  {
    atMs: 45_000,
    name: 'restart Redis (SIGKILL, empty on return: the queue is lost)',
    async run(t) {
      await t.redis.restart();
    },
  },
  {
    atMs: 60_000,
    name: 'restart PostgreSQL (pg_ctl restart -m fast: every connection cut)',
    async run(t) {
      await t.postgres.restart();
    },
  },
  {
    atMs: 80_000,
    name: `webhook receiver down for ${RECEIVER_DOWN_MS / 1000} s (connections refused)`,
    async run(t) {
      await t.receiver.down();
      await sleep(RECEIVER_DOWN_MS);
      await t.receiver.up();
    },
  },
];

/** Runs the schedule from `loadStart`; resolves when the last fault is over. */
export async function runFaults(t: Targets, loadStart: number, log: (line: string) => void): Promise<void> {
  for (const fault of FAULTS) {
    const wait = loadStart + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    log(`fault: ${fault.name}`);
    await fault.run(t, (line) => log(`  ${line}`));
    log(`fault over: ${fault.name}`);
  }
}
