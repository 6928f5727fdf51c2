// The processes under test: the standalone sandbox chains, API processes and workers, each a
// child `node` with its own log tail, killable with SIGKILL and startable again with the same env.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

const TAIL_LINES = 30;

export interface Proc {
  name: string;
  /** Starts the child (again); its earlier log lines stay in the tail. */
  start(): void;
  /** SIGKILL, resolved once the child is gone. */
  kill9(): Promise<void>;
  running(): boolean;
  /** The last lines it printed (stdout and stderr), for the report when a check fails. */
  tail(): string;
  /** Whether any line so far contains the text. */
  printed(text: string): boolean;
  /** Warning and error log lines (the last thousand) that contain the text: why a payment ended as it did. */
  warnings(text: string): string[];
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs: number): Promise<void>;
}

export function proc(name: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  let child: ChildProcess | null = null;
  let lines: string[] = [];
  let all = '';
  let warned: string[] = [];
  const record = (chunk: Buffer) => {
    const text = chunk.toString();
    for (const line of text.split('\n')) if (/"level":[456]0/.test(line)) warned.push(line);
    if (warned.length > 2000) warned = warned.slice(-1000);
    // Only a bounded amount is searched by printed(): start-up messages come first.
    if (all.length < 200_000) all += text;
    lines.push(...text.split('\n').filter(Boolean));
    if (lines.length > TAIL_LINES * 4) lines = lines.slice(-TAIL_LINES);
  };
  const gone = (c: ChildProcess | null) => !c || c.exitCode !== null || c.signalCode !== null;
  const waitExit = (c: ChildProcess) => new Promise<void>((done) => (gone(c) ? done() : c.once('exit', () => done())));
  return {
    name,
    start() {
      if (!gone(child)) throw new Error(`${name} is already running`);
      const c = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      c.stdout.on('data', record);
      c.stderr.on('data', record);
      c.on('exit', (code, signal) => lines.push(`[fault suite] ${name} exited (${signal ?? `code ${code}`})`));
      child = c;
    },
    async kill9() {
      const c = child;
      if (!c || gone(c)) return;
      c.kill('SIGKILL');
      await waitExit(c);
    },
    running: () => !gone(child),
    tail: () => lines.slice(-TAIL_LINES).join('\n'),
    printed: (text) => all.includes(text),
    warnings: (text) => warned.filter((l) => l.includes(text)),
    async stop(graceMs) {
      const c = child;
      if (!c || gone(c)) return;
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), graceMs);
      await waitExit(c);
      clearTimeout(timer);
    },
  };
}

/** Polls `ok` every 100 ms until it holds; throws naming `what` at the deadline. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether an API process answers /healthz. */
export async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}
