import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { startSandboxService, type SandboxService } from './helpers/sandbox-service.ts';
import { copyMigratedDataDir } from './helpers/embedded-storage.ts';
import { dropSchema, postgresAvailable, postgresUrl, requireServices, uniqueSchema } from './helpers/services.ts';

// The commands of the README and the guides, run as written. Every `sh` block carries a marker:
// `<!-- docs-check: tour -->` (the README's five-minute tour), `<!-- docs-check: run -->` (run here,
// in order per file, against a fresh sandbox composed as `npm start` composes it, the key tool on a
// data directory of its own), `<!-- docs-check: run postgres -->` (the key tool on a fresh
// PostgreSQL schema), or `<!-- docs-check: equivalent: … -->` (what runs it elsewhere: CI's test
// command, the fault suites). Placeholders are filled in with what the session printed: the keys,
// the sandbox's asset ids, and the newest `mrch_…`, `pay_…`, `ptnr_…`, `key_…` an earlier command
// printed. A command that fails, or an answer in the API's error shape, fails the block.

const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const available = await postgresAvailable();
if (requireServices && !available) throw new Error('REQUIRE_SERVICES=1 but PostgreSQL is not reachable');

interface Block {
  file: string;
  line: number;
  marker: string;
  text: string;
}

/** Every `sh`/`bash` block of the README and the guides, with the marker on the line before it. */
function shellBlocks(): Block[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const blocks: Block[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    let fence: number | null = null;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('```')) continue;
      if (fence === null) {
        if (/^```(sh|bash)\s*$/.test(lines[i]!)) fence = i;
        else i = lines.findIndex((l, j) => j > i && l.startsWith('```'));
        continue;
      }
      const marker = /^<!-- docs-check: (.*?) ?-->$/.exec(lines[fence - 1] ?? '')?.[1] ?? '';
      blocks.push({ file, line: fence + 1, marker, text: lines.slice(fence + 1, i).join('\n') });
      fence = null;
    }
  }
  return blocks;
}

describe('README and guides: every command block is run, here or by what its marker names', () => {
  let service: SandboxService;
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-'));
  const schema = uniqueSchema('docs_check');

  beforeAll(async () => {
    // Started from the migrated data directory: its first start is not what this file checks.
    service = await startSandboxService(copyMigratedDataDir(join(dir, 'service')));
    if (available) await (await createPostgresStorage({ url: postgresUrl, schema })).close();
  }, 180_000);

  afterAll(async () => {
    await service?.close();
    if (available) await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('every block is marked', () => {
    const blocks = shellBlocks();
    expect(blocks.length).toBeGreaterThan(15);
    expect(blocks.filter((b) => !/^(tour|run|run postgres|equivalent: .+)/.test(b.marker)).map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  it("the README's tour: curl creates a merchant, a settlement and a payment, and the demo wallet pays it", async () => {
    const [tour] = shellBlocks().filter((b) => b.marker.startsWith('tour'));
    const { stdout } = await runBlock(tour!, { dataDir: join(dir, 'tour') });
    expect(stdout).toContain('Final status: succeeded');
    const link = /Pay page: (\S+)/.exec(stdout)![1]!;
    const paymentId = link.slice(link.lastIndexOf('/') + 1);
    const list = (await (await fetch(`${service.base}/v1/payments?limit=5`, { headers: { 'Api-Key': service.partnerKey } })).json()) as {
      data: { paymentId: string; status: string }[];
    };
    expect(list.data.find((p) => p.paymentId === paymentId)?.status).toBe('succeeded');
  }, 180_000);

  const byFile = new Map<string, Block[]>();
  for (const b of shellBlocks().filter((x) => x.marker.startsWith('run'))) byFile.set(b.file, [...(byFile.get(b.file) ?? []), b]);
  for (const [file, blocks] of byFile)
    it(`${file}: ${blocks.length} block(s) run in order`, async () => {
      const session = mkdtempSync(join(dir, 'guide-'));
      // The key tool's data directory, migrated already: each tool run is a process of its own.
      copyMigratedDataDir(join(session, 'data'));
      for (const b of blocks) {
        const out = await runBlock(b, { dataDir: join(session, 'data'), session, postgres: b.marker === 'run postgres' });
        // curl exits 0 on any HTTP status: an answer in the API's error shape is a failure too.
        expect(out.log, `${b.file}:${b.line}`).not.toMatch(/"code":"[a-z_]+"/);
      }
    }, 300_000);

  /** Runs one block with bash: placeholders filled in, `./npmw start` left to the test, output kept. */
  async function runBlock(b: Block, o: { dataDir: string; session?: string; postgres?: boolean }): Promise<{ stdout: string; log: string }> {
    const { base, usdc, solUsdc } = service;
    const session = o.session ?? mkdtempSync(join(dir, 'block-'));
    const log = join(session, 'output.log');
    const text = b.text
      .split('\n')
      .filter((l) => !/^\.\/npmw start\b/.test(l))
      .join('\n')
      .replaceAll('http://localhost:3000', base)
      .replaceAll('localhost:3000', base.replace('http://', ''))
      .replaceAll('sk_test_…', service.partnerKey)
      .replaceAll('wk_…', service.walletKey)
      .replaceAll('eip155:31337/erc20:0x…', usdc)
      .replaceAll('solana:sandbox/token:…', solUsdc)
      .replace(/\b(mrch|pay|ptnr|key)_[0-9A-Z]*…/g, (_m, kind: string) => `$(last_id ${kind})`)
      .replace(/^\.\/npmw /gm, 'run_npmw ')
      .replace(/\| \.\/npmw /g, '| run_npmw ');
    // Each block of a guide starts from the variables the blocks before it exported.
    const envFile = join(session, 'env.sh');
    const script = [
      'set -euo pipefail',
      `LOG=${JSON.stringify(log)}; touch "$LOG"; [ -f ${JSON.stringify(envFile)} ] && . ${JSON.stringify(envFile)}`,
      'curl() { command curl "$@" | tee -a "$LOG"; echo >> "$LOG"; }',
      `run_npmw() { ${JSON.stringify(join(root, 'npmw'))} "$@" | tee -a "$LOG"; }`,
      'last_id() { grep -o "$1_[0-9A-Z]\\{26\\}" "$LOG" | tail -1; }',
      text,
      `export -p > ${JSON.stringify(envFile)}`,
    ].join('\n');
    const file = join(session, 'block.sh');
    writeFileSync(file, script);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // Node 24 first on PATH, as ./npmw arranges for a newcomer.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      DATA_DIR: o.dataDir,
      OWNER_PASSWORD: 'Correct-Horse-Battery-9',
    };
    delete env.DATABASE_URL;
    if (o.postgres) env.DATABASE_URL = `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const child = run('bash', [file], { cwd: root, env, timeout: 150_000 });
    child.child.stdin?.end('Correct-Horse-Battery-9\n');
    try {
      const { stdout } = await child;
      return { stdout, log: readFileSync(log, 'utf8') };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`${b.file}:${b.line} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, { cause: err });
    }
  }
});
