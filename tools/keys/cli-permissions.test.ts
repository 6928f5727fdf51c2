import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysTool } from './test-support/run-keys.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { startTestApp } from '../../test/helpers/test-app.ts';
import { copyMigratedDataDir } from '../../test/helpers/embedded-storage.ts';

const dataDir = copyMigratedDataDir(mkdtempSync(join(tmpdir(), 'keys-cli-permissions-')));

const keysWithInput = keysTool(dataDir, { SERVICE_MODE: 'sandbox' });
const keys = (...args: string[]) => keysWithInput(undefined, ...args);

describe('key tool: scoped partner keys', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a partner key limited to the permissions named (the API’s and the dashboard’s names), which the API enforces', async () => {
    const partner = JSON.parse((await keys('create-partner', '--name', 'Scoped', '--json')).stdout) as { partnerId: string };
    const made = await keys('create-key', '--partner', partner.partnerId, '--scope', 'partner', '--permission', 'read', '--permission', 'webhooks:write', '--json');
    expect(made.code, made.stderr).toBe(0);
    const scoped = JSON.parse(made.stdout) as { keyId: string; apiKey: string; permissions: string[] | null };
    expect(scoped.permissions).toEqual(['read', 'webhooks:write']);
    // Comma-separated works too; asking for every permission is an unlimited key.
    const readOnly = JSON.parse((await keys('create-key', '--partner', partner.partnerId, '--scope', 'partner', '--permission', 'read', '--json')).stdout) as { apiKey: string };
    const all = JSON.parse(
      (
        await keys(
          'create-key',
          '--partner',
          partner.partnerId,
          '--scope',
          'partner',
          '--permission',
          'read,payments:create,payments:write,merchants:write,webhooks:write',
          '--json',
        )
      ).stdout,
    ) as { keyId: string; permissions: string[] | null };
    expect(all.permissions).toBeNull();

    for (const [args, message] of [
      [
        ['--scope', 'partner', '--permission', 'settlements:write'],
        /unknown permission "settlements:write".*read, payments:create, payments:write, merchants:write, webhooks:write/,
      ],
      [['--scope', 'partner', '--permission', 'read,owner'], /unknown permission "owner"/],
      [['--scope', 'partner', '--permission', ''], /unknown permission ""/],
      [['--scope', 'wallet', '--permission', 'read'], /partner keys only/],
    ] as const) {
      const refused = await keys('create-key', '--partner', partner.partnerId, ...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
    const listed = JSON.parse((await keys('list', '--partner', partner.partnerId, '--json')).stdout) as Array<{ keyId: string; permissions?: string[] }>;
    // The refused attempts wrote nothing: the partner's first key and the three made here.
    expect(listed).toHaveLength(4);
    expect(listed.find((k) => k.keyId === scoped.keyId)?.permissions).toEqual(['read', 'webhooks:write']);
    expect(listed.find((k) => k.keyId === all.keyId)?.permissions).toBeUndefined();
    expect((await keys('list', '--partner', partner.partnerId)).stdout).toContain('limited to read,webhooks:write');

    const storage = await createPostgresStorage({ embedded: true, dataDir });
    const t = await startTestApp(storage);
    try {
      expect((await t.call('GET', '/v1/merchants', { key: readOnly.apiKey })).status).toBe(200);
      const write = await t.call('POST', '/v1/merchants', { key: readOnly.apiKey, body: { name: 'Nope' } });
      expect(write.status).toBe(403);
      expect(write.body.code).toBe('forbidden');
      expect((await t.call('GET', '/v1/webhook-endpoints', { key: scoped.apiKey })).status).toBe(200);
    } finally {
      await t.close();
      await storage.close();
    }
  }, 180_000);
});
