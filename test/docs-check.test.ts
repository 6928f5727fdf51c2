import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from '../server/composition/runtime.ts';
import { loadConfig } from '../server/config.ts';
import { freePort } from './helpers/free-port.ts';

// The README's five-minute tour, run as written against a fresh sandbox composed as `npm start`
// composes it: the block after `<!-- docs-check: tour` is taken from README.md, its placeholders
// (the printed keys, the address) are filled in, and bash runs it. A tour that no longer works
// fails here before a newcomer meets it.

const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** The fenced block right after the `<!-- docs-check: <name>` marker in a markdown file. */
function checkedBlock(markdown: string, name: string): string {
  const marker = markdown.indexOf(`<!-- docs-check: ${name}`);
  if (marker < 0) throw new Error(`no <!-- docs-check: ${name} --> block`);
  const m = /```(?:sh|bash)\n([\s\S]*?)\n```/.exec(markdown.slice(marker));
  if (!m) throw new Error(`the docs-check ${name} marker is not followed by a sh block`);
  return m[1]!;
}

describe('README: the five-minute tour', () => {
  let runtime: Runtime;
  let server: Server;
  let base: string;
  let printed = '';
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-'));

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = loadConfig({ SERVICE_MODE: 'sandbox', DATA_DIR: dir, PORT: String(port), PUBLIC_BASE_URL: base, LOGO_CHECKS: 'off' });
    runtime = await openRuntime(config, { role: 'api', logger: pino({ level: 'silent' }), print: (text) => void (printed += text) });
    server = createServer(runtime.api!.app);
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  }, 180_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a merchant, a settlement and a payment with curl, and the demo wallet pays it', async () => {
    const partnerKey = /sk_test_[\w-]+/.exec(printed)![0];
    const walletKey = /wk_[\w-]+/.exec(printed)![0];
    const tour = checkedBlock(readFileSync(join(root, 'README.md'), 'utf8'), 'tour')
      .replaceAll('http://localhost:3000', base)
      .replaceAll('sk_test_…', partnerKey)
      .replaceAll('wk_…', walletKey);
    expect(tour).not.toContain('…');
    // Node 24 first on PATH, as ./npmw arranges for a newcomer.
    const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', tour], { cwd: root, env, timeout: 120_000 });
    expect(stdout).toContain('Final status: succeeded');
    const link = /Pay page: (\S+)/.exec(stdout)![1]!;
    const paymentId = link.slice(link.lastIndexOf('/') + 1);
    const list = (await (await fetch(`${base}/v1/payments?limit=5`, { headers: { 'Api-Key': partnerKey } })).json()) as { data: { paymentId: string; status: string }[] };
    expect(list.data.find((p) => p.paymentId === paymentId)?.status).toBe('succeeded');
  }, 180_000);
});
