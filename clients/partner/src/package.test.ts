// The package must stand alone once published: its copy of the contract matches the root
// generation, and the build output imports in plain Node and type-checks for a consumer.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleFiles } from '../scripts/sync-types.ts';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootDir = join(packageDir, '..', '..');
const tsc = join(rootDir, 'node_modules', 'typescript', 'bin', 'tsc');

describe('the publishable package', () => {
  it('carries the contract exactly as generated (else run: npm run sync-types -w @mps/partner)', () => {
    expect(staleFiles()).toEqual([]);
  });

  describe('its build', () => {
    let out: string;
    beforeAll(async () => {
      // A consumer's tree: node_modules/@mps/partner holds package.json and dist, nothing else.
      out = mkdtempSync(join(tmpdir(), 'mps-partner-'));
      const pkg = join(out, 'node_modules', '@mps', 'partner');
      await run(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')]);
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({ name: '@mps/partner', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } }),
      );
      symlinkSync(join(rootDir, 'node_modules', 'openapi-fetch'), join(out, 'node_modules', 'openapi-fetch'));
      writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }));
    }, 60_000);
    afterAll(() => rmSync(out, { recursive: true, force: true }));

    it('imports in plain Node (no TypeScript stripping)', async () => {
      const script =
        "const m = await import('@mps/partner'); const c = m.createPartnerClient({ baseUrl: 'http://x', apiKey: 'k' }); console.log(JSON.stringify([Object.keys(m).sort(), Object.keys(c)]));";
      const { stdout } = await run(process.execPath, ['--no-experimental-strip-types', '--input-type=module', '-e', script], { cwd: out });
      const [exports, client] = JSON.parse(stdout) as [string[], string[]];
      expect(exports).toEqual(expect.arrayContaining(['ApiError', 'WaitTimeoutError', 'createPartnerClient']));
      expect(client).toEqual(['raw', 'merchants', 'settlements', 'payments', 'refunds']);
    });

    it('type-checks for a consumer with default module settings, paths included', async () => {
      writeFileSync(
        join(out, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, lib: ['es2022', 'dom'], types: [] },
          files: ['use.ts'],
        }),
      );
      writeFileSync(
        join(out, 'use.ts'),
        [
          "import { createPartnerClient, type Payment } from '@mps/partner';",
          "const c = createPartnerClient({ baseUrl: 'http://x', apiKey: 'k' });",
          "export async function f(): Promise<Payment['status']> {",
          "  const r = await c.raw.GET('/v1/payments/{id}', { params: { path: { id: 'p' }, header: { 'Merchant-Id': 'm' } } });",
          '  // @ts-expect-error: a path the contract does not have',
          "  await c.raw.GET('/v1/nope');",
          "  return r.data?.status ?? (await c.payments.status('m', 'p')).status;",
          '}',
        ].join('\n'),
      );
      await expect(run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')], { cwd: out })).resolves.toBeDefined();
    });
  });
});
