// The fault suite's own PostgreSQL cluster and Redis server, in a temp dir on free ports, so
// restarting them hurts nothing else on the machine. Redis keeps nothing on disk: a restart loses
// the queue, and the outbox in PostgreSQL has to make up for it (that is one of the faults).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class MissingToolError extends Error {}

/** A port nothing listens on right now (loopback). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port, or rejects at the deadline. */
export async function waitForPort(port: number, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** PostgreSQL's server programs: pg_config's bindir, else the newest under /usr/lib/postgresql. */
function pgBinDir(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on PATH: look where Debian installs the server
  }
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  const dir = candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
  if (!dir) throw new MissingToolError('PostgreSQL server programs (initdb, pg_ctl) not found: install the postgresql package (e.g. apt-get install postgresql)');
  return dir;
}

export interface Postgres {
  url: string;
  port: number;
  /** A fast restart: open connections are cut, the server is back when this resolves. */
  restart(): Promise<void>;
  stop(): void;
  logTail(): string;
}

/**
 * initdb + pg_ctl in a temp dir, trust auth, 127.0.0.1 only, its unix socket in the temp dir.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'faults-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const run = (program: string, args: string[]) => execFileSync(...command(program, args), { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, timeout: 60_000 });
  // The restart happens under load: the harness's own event loop (the load) must keep running.
  const runAsync = (program: string, args: string[]) => promisify(execFile)(...command(program, args), { cwd: dir, timeout: 60_000 });
  const port = await freePort();
  const stop = () => {
    try {
      run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '10']);
    } catch {
      // not running (or already stopped): the directory goes anyway
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
    run('pg_ctl', ['start', '-D', data, '-l', log, '-o', opts, '-w', '-t', '60']);
  } catch (err) {
    stop();
    throw new Error(`PostgreSQL did not start: ${(err as { stderr?: Buffer }).stderr?.toString() ?? String(err)}`, { cause: err });
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => {
      // -l again: without it the new server would hold the pipe of this command open.
      await runAsync('pg_ctl', ['restart', '-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60']);
      await waitForPort(port, 'PostgreSQL', 30_000);
    },
    stop,
    logTail: () => {
      try {
        return execFileSync('tail', ['-n', '20', log], { encoding: 'utf8' });
      } catch {
        return '';
      }
    },
  };
}

export interface Redis {
  url: string;
  /** Killed (SIGKILL: nothing is saved anyway) and started again on the same port, empty. */
  restart(): Promise<void>;
  stop(): void;
}

export async function startRedis(): Promise<Redis> {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new MissingToolError('redis-server not found on PATH: install Redis (e.g. apt-get install redis-server)');
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'faults-redis-'));
  mkdirSync(dir, { recursive: true });
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    await waitForPort(port, 'Redis', 15_000);
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await kill();
      await start();
    },
    stop: () => {
      child?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
