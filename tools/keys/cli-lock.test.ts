import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { EmbeddedDatabaseInUse, LOCK_FILE } from '../../adapters/storage/postgres/data-dir-lock.ts';
import { startTestApp } from '../../test/helpers/test-app.ts';
import { checkDatabase } from '../doctor/database.ts';
import { SHORT_RUN_NODE_FLAGS } from './test-support/run-keys.ts';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, 'cli.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'keys-lock-'));

async function keys(...args: string[]): Promise<{ stdout: string; code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...SHORT_RUN_NODE_FLAGS, cli, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function partnerCount(storage: Awaited<ReturnType<typeof createPostgresStorage>>): Promise<number> {
  return (await storage.db.query<{ n: number }>('SELECT count(*)::int4 AS n FROM partners')).rows[0]!.n;
}

describe('the embedded data directory is opened by one process at a time', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the key tool refuses a directory the running service holds, writes nothing, and works once the service stops', async () => {
    const storage = await createPostgresStorage({ embedded: true, dataDir });
    const service = await startTestApp(storage);
    const seeded = await partnerCount(storage);
    try {
      const refused = await keys('create-partner', '--name', 'Lost', '--json');
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
      expect(refused.stderr).toMatch(/Stop that process.*or set DATABASE_URL/s);
      // Neither the running service nor the files saw a write.
      expect(await partnerCount(storage)).toBe(seeded);
      // The doctor, which never opens it, names the holder.
      expect((await checkDatabase({ dataDir }, 1000)).reason).toContain(`held now by process ${process.pid}`);
    } finally {
      await service.close();
      await storage.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    expect((await checkDatabase({ dataDir }, 1000)).reason).toContain('no process holds it now');

    const created = await keys('create-partner', '--name', 'Kept', '--json');
    expect(created.code, created.stderr).toBe(0);
    const reopened = await createPostgresStorage({ embedded: true, dataDir });
    try {
      expect(await partnerCount(reopened)).toBe(seeded + 1);
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('cannot be opened twice in one process either', async () => {
    const first = await createPostgresStorage({ embedded: true, dataDir });
    try {
      await expect(createPostgresStorage({ embedded: true, dataDir })).rejects.toBeInstanceOf(EmbeddedDatabaseInUse);
    } finally {
      await first.close();
    }
  }, 60_000);

  it('takes over the lock of a holder that died without releasing it', async () => {
    // A real pid that has exited: a SIGKILLed service leaves exactly this behind.
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((res) => child.on('exit', () => res(child.pid!)));
    writeFileSync(join(dataDir, LOCK_FILE), `${deadPid}\n`);
    const listed = await keys('list', '--partner', 'ptnr_none');
    expect(listed.code, listed.stderr).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);
});
