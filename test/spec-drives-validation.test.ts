import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { loadOpenApiDocs } from '../server/http/openapi-docs.ts';
import { publishable } from '../scripts/publishable-openapi.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const root = resolve(import.meta.dirname, '..');

/**
 * The limits the server enforces come from spec/ alone: compile an edited copy of the spec and
 * the same server code accepts and rejects differently, with no hand edit anywhere else.
 */
describe('a limit edited in the TypeSpec changes what the server accepts', () => {
  let dir: string;
  let edited: TestApp;
  let original: TestApp;
  beforeAll(async () => {
    // Inside the repository, so the copy resolves the TypeSpec libraries from node_modules.
    mkdirSync(join(root, '.cache'), { recursive: true });
    dir = mkdtempSync(join(root, '.cache', 'spec-edit-'));
    cpSync(join(root, 'spec'), join(dir, 'spec'), { recursive: true });
    const models = join(dir, 'spec/merchants/models.tsp');
    const text = readFileSync(models, 'utf8');
    expect(text).toContain('@maxLength(256)\nscalar MerchantName');
    writeFileSync(models, text.replace('@maxLength(256)\nscalar MerchantName', '@maxLength(32)\nscalar MerchantName'));
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/@typespec/compiler/cmd/tsp.js'),
        'compile',
        join(dir, 'spec/main.tsp'),
        '--config',
        join(root, 'tspconfig.yaml'),
        '--option',
        `@typespec/openapi3.emitter-output-dir=${join(dir, 'out')}`,
      ],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
    const storage = await openEmbeddedStorage();
    // The documents as `npm run generate` publishes them (the service serves those).
    for (const f of readdirSync(join(dir, 'out')).filter((n) => n.endsWith('.yaml'))) writeFileSync(join(dir, 'out', f), publishable(readFileSync(join(dir, 'out', f), 'utf8')));
    edited = await startTestApp(storage, { docs: loadOpenApiDocs(join(dir, 'out')) });
    original = await startTestApp(storage);
  }, 120_000);
  afterAll(async () => {
    await edited?.close();
    await original?.close();
    await original?.storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (t: TestApp, name: string) =>
    t.call('POST', '/v1/merchants', { key: t.a.key, headers: { 'Idempotency-Key': `${name}-${Math.random()}` }, body: { merchantName: name, merchantEmail: 'a@b.co' } });

  // 32, not less: the spec's own examples (merchant names up to 20 characters) must still compile.
  it('rejects a 33-character name after maxLength 256 → 32, and the generated spec still accepts it', async () => {
    expect((await create(original, 'Thirty Three Characters Long Shop')).status).toBe(201);
    const r = await create(edited, 'Thirty Three Characters Long Shop');
    expect(r.status).toBe(400);
    expect(r.body.issues).toEqual([{ field: 'merchantName', message: 'must NOT have more than 32 characters' }]);
    expect((await create(edited, 'Thirty Two Characters Long Shop!')).status).toBe(201);
  });
});
