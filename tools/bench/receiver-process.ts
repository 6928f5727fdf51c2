/**
 * The bench receiver (receiver.ts) in a process of its own. Why: the background bench also sends
 * 1,000 creates a second; with the receiver on that event loop, its 200 waited behind the load
 * generator's own work (27.5 ms an attempt on average at load 12–16), and one endpoint's
 * deliveries are bounded by its in-flight cap over that time: the bench measured itself. A receiver
 * alone answers as one behind a balancer does. Arrivals come back over IPC in batches, stamped by
 * the child's clock (the same machine's `Date.now()`).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBenchReceiver, type Arrival } from './receiver.ts';

type FromChild = { url: string } | { arrivals: Arrival[] };

/** How often the child hands over what arrived; the bench samples every 10 s. */
const FLUSH_MS = 100;

/** Starts the receiver in a child process: its arrivals so far, its URLs, and `close`. */
export async function startReceiverProcess() {
  const child = fork(fileURLToPath(import.meta.url), ['child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const arrivals: Arrival[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench receiver exited (${code}) before it listened`)));
    child.on('message', (m: FromChild) => {
      if ('url' in m) resolve(m.url);
      else arrivals.push(...m.arrivals);
    });
  });
  child.removeAllListeners('exit');
  return {
    arrivals,
    url: (path: string) => `${base}${path}`,
    /** Stops the child once it handed over its last arrivals. */
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

async function runChild(): Promise<void> {
  const rx = await startBenchReceiver();
  let sent = 0;
  const flush = () => {
    if (rx.arrivals.length > sent) process.send!({ arrivals: rx.arrivals.slice(sent) } satisfies FromChild);
    sent = rx.arrivals.length;
  };
  const timer = setInterval(flush, FLUSH_MS);
  process.on('message', (m) => {
    if (m !== 'close') return;
    clearInterval(timer);
    flush();
    void rx.close().then(() => process.disconnect());
  });
  process.send!({ url: rx.url('') } satisfies FromChild);
}

if (process.argv[2] === 'child' && process.send) void runChild();
