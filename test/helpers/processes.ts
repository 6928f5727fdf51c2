// Real API and worker child processes for tests: spawn with an env, wait until ready, keep their
// logs (printed when a test fails), stop with a signal, and kill every leftover at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { waitFor } from './wait-for.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export type ServiceKind = 'api' | 'worker';

export interface ServiceProcess {
  kind: ServiceKind;
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<PORT>` for an API; empty for a worker. */
  url: string;
  /** Everything the child wrote, stdout and stderr interleaved. */
  logs(): string;
  /** The pino lines it wrote, parsed (non-JSON lines skipped). */
  logLines(): Record<string, unknown>[];
  /** Resolves with the exit code (null when killed by a signal) once the child has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: ServiceProcess[] = [];
let hooked = false;

/** The test runner's environment without a database or Redis a developer may have set. */
function baseEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, JOB_WORKERS: _jobs, ...rest } = process.env;
  return rest;
}

/**
 * Starts `node server/main.ts` (api: env must hold PORT) or `node server/worker.ts` and waits for
 * its "listening" / "worker started" log line. Fails with the child's logs if it exits first.
 */
export async function startService(kind: ServiceKind, env: Record<string, string>, opts: { name?: string; readyMs?: number } = {}): Promise<ServiceProcess> {
  if (!hooked) {
    hooked = true;
    // A failing test shows what the children logged; whatever it leaves running is killed.
    afterEach((ctx) => {
      if (ctx.task.result?.state === 'fail') console.error(allLogs());
    });
    afterAll(() => killLeftovers());
  }
  const script = kind === 'api' ? 'server/main.ts' : 'server/worker.ts';
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...baseEnv(), LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const name = opts.name ?? `${kind}-${started.length + 1}`;
  const logLines = () =>
    text.split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const proc: ServiceProcess = {
    kind,
    name,
    child,
    url: kind === 'api' ? `http://127.0.0.1:${env.PORT}` : '',
    logs: () => text,
    logLines,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  started.push(proc);
  const ready = kind === 'api' ? 'listening' : 'worker started';
  await waitFor(`${name} to log "${ready}"`, () => child.exitCode !== null || logLines().some((l) => l.msg === ready), opts.readyMs ?? 60_000, 50).catch((err: Error) => {
    throw new Error(`${err.message}\n--- ${name} logs ---\n${text}`);
  });
  if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready:\n${text}`);
  return proc;
}

/** The logs of every child this file started, for a failing test's report. */
export function allLogs(): string {
  return started.map((p) => `--- ${p.name} (${p.kind}) ---\n${p.logs()}`).join('\n');
}

/** Kills every child still running (SIGKILL): a failed or timed-out test leaves nothing behind. */
export async function killLeftovers(): Promise<void> {
  await Promise.all(started.filter((p) => p.child.exitCode === null && p.child.signalCode === null).map((p) => p.stop('SIGKILL')));
}
