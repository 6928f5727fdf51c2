import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, '../cli.ts');

/**
 * Each run is a short process whose time is mostly PGlite compiling its WebAssembly: V8 would
 * compile it twice, the second time with its optimizing tier, which a run of a few hundred
 * queries never profits from. Liftoff alone (the same code, only the compiler tier differs)
 * halves a run's CPU time, and these files run twenty-odd of them on CI's two cores.
 */
export const SHORT_RUN_NODE_FLAGS = ['--liftoff-only'];

export interface KeysRun {
  stdout: string;
  stderr: string;
  /** The tool's exit code (0 on success). */
  code: number;
}

/** The key tool as a person runs it, on the embedded database in `dataDir`, with `stdin` as its input. */
export function keysTool(dataDir: string, env: NodeJS.ProcessEnv = {}) {
  return async (stdin: string | undefined, ...args: string[]): Promise<KeysRun> => {
    try {
      const pending = run(process.execPath, [...SHORT_RUN_NODE_FLAGS, cli, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env } });
      pending.child.stdin?.end(stdin ?? '');
      const { stdout, stderr } = await pending;
      return { stdout, stderr, code: 0 };
    } catch (err) {
      const e = err as { stdout: string; stderr: string; code: number };
      return { stdout: e.stdout, stderr: e.stderr, code: e.code };
    }
  };
}
