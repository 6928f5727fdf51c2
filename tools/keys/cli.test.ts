import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { startTestApp } from '../../test/helpers/test-app.ts';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, 'cli.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'keys-cli-'));

async function keys(...args: string[]): Promise<{ stdout: string; code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('key tool on the embedded data directory', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a partner and keys, lists and revokes them; the server accepts exactly the live keys', async () => {
    const created = await keys('create-partner', '--name', 'Acme', '--version', '2026-02-19.preview', '--json');
    expect(created.code).toBe(0);
    const partner = JSON.parse(created.stdout) as { partnerId: string; apiKey: string };
    expect(partner.partnerId).toMatch(/^ptnr_/);
    expect(partner.apiKey).toMatch(/^sk_test_/);

    const wallet = JSON.parse((await keys('create-key', '--partner', partner.partnerId, '--scope', 'wallet', '--json')).stdout) as { keyId: string; apiKey: string };
    expect(wallet.apiKey).toMatch(/^wk_/);
    const second = JSON.parse((await keys('create-key', '--partner', partner.partnerId, '--scope', 'partner', '--json')).stdout) as { keyId: string; apiKey: string };

    const listed = JSON.parse((await keys('list', '--partner', partner.partnerId, '--json')).stdout) as Array<{ keyId: string; scope: string; hint: string }>;
    expect(listed.map((k) => k.scope).sort()).toEqual(['partner', 'partner', 'wallet']);
    expect(JSON.stringify(listed)).not.toContain(second.apiKey);
    expect((await keys('revoke', second.keyId, '--json')).code).toBe(0);
    expect((await keys('revoke', second.keyId)).code).toBe(2);

    // The server, on the same data directory once the tool has exited, sees what the tool wrote.
    const storage = await createPostgresStorage({ embedded: true, dataDir });
    const t = await startTestApp(storage);
    try {
      const ok = await t.call('GET', '/v1/merchants', { key: partner.apiKey });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('svc-version')).toBe('2026-02-19.preview');
      expect((await t.call('GET', '/v1/merchants', { key: second.apiKey })).body.code).toBe('invalid_api_key');
      expect((await t.call('GET', '/v1/merchants', { key: wallet.apiKey })).body.code).toBe('forbidden');
    } finally {
      await t.close();
      await storage.close();
    }
  }, 120_000);

  it('explains usage errors with exit code 2', async () => {
    for (const args of [
      [],
      ['create-partner'],
      ['create-key', '--partner', 'ptnr_x', '--scope', 'admin'],
      ['create-partner', '--name', 'X', '--version', '1999-01-01'],
      ['frobnicate'],
    ]) {
      const r = await keys(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
  }, 120_000);
});
