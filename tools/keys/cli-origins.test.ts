import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysTool } from './test-support/run-keys.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { copyMigratedDataDir } from '../../test/helpers/embedded-storage.ts';

const dataDir = copyMigratedDataDir(mkdtempSync(join(tmpdir(), 'keys-cli-origins-')));

const keysWithInput = keysTool(dataDir, { SERVICE_MODE: 'sandbox' });
const keys = (...args: string[]) => keysWithInput(undefined, ...args);

describe('key tool: App-Ids with allowed origins', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an App-Id limited to the origins given, lists them, and refuses bad origins before writing', async () => {
    const partner = JSON.parse((await keys('create-partner', '--name', 'Wallet team', '--json')).stdout) as { partnerId: string };
    const made = await keys('create-key', '--partner', partner.partnerId, '--scope', 'app', '--origin', 'https://wallet.example', '--origin', 'http://localhost:5173', '--json');
    expect(made.code).toBe(0);
    const app = JSON.parse(made.stdout) as { keyId: string; apiKey: string; allowedOrigins: string[] };
    expect(app.apiKey).toMatch(/^app_/);
    expect(app.allowedOrigins).toEqual(['https://wallet.example', 'http://localhost:5173']);

    for (const [origin, scope] of [
      ['https://Wallet.example', 'app'],
      ['https://wallet.example/', 'app'],
      ['https://*.example', 'app'],
      ['http://wallet.example', 'app'],
      ['https://wallet.example', 'wallet'],
    ] as const) {
      const refused = await keys('create-key', '--partner', partner.partnerId, '--scope', scope, '--origin', origin);
      expect(refused.code, `${scope} ${origin}`).toBe(2);
      expect(refused.stderr).toContain('--origin');
    }

    const listed = JSON.parse((await keys('list', '--partner', partner.partnerId, '--json')).stdout) as Array<{ keyId: string; allowedOrigins?: string[] }>;
    // The refused attempts wrote nothing: the partner key and the one App-Id.
    expect(listed).toHaveLength(2);
    expect(listed.find((k) => k.keyId === app.keyId)?.allowedOrigins).toEqual(['https://wallet.example', 'http://localhost:5173']);
  }, 180_000);
});
