import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A suite that needs PostgreSQL or Redis, run (in a vitest of its own) with both pointed at a
 * closed port: its report shows the missing suites as skipped with the reason, and under
 * REQUIRE_SERVICES=1 the file fails instead.
 */
const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'services-fixture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Report {
  testResults: { status: string; message: string; assertionResults: { status: string; title: string }[] }[];
}

async function runFixture(requireServices: boolean): Promise<Report> {
  const outputFile = join(scratch, `report-${requireServices}.json`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEST_DATABASE_URL: 'postgresql://postgres:secret@127.0.0.1:1/test',
    TEST_REDIS_URL: 'redis://127.0.0.1:1',
    REQUIRE_SERVICES: requireServices ? '1' : '0',
  };
  const args = [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    join(root, 'test/helpers/services-fixture/vitest.config.ts'),
    '--reporter=json',
    `--outputFile=${outputFile}`,
  ];
  await promisify(execFile)(process.execPath, args, { cwd: root, env }).catch(() => {});
  return JSON.parse(readFileSync(outputFile, 'utf8')) as Report;
}

describe('suites that need an absent PostgreSQL or Redis', () => {
  it('show as skipped with the reason (and no password) without REQUIRE_SERVICES', async () => {
    const [file] = (await runFixture(false)).testResults;
    expect(file!.status).toBe('passed');
    expect(file!.assertionResults.map(({ status, title }) => ({ status, title }))).toEqual([
      {
        status: 'skipped',
        title: 'the suites on PostgreSQL (skipped: PostgreSQL not reachable at postgresql://postgres:***@127.0.0.1:1/test; set REQUIRE_SERVICES=1 to fail instead)',
      },
      { status: 'skipped', title: 'the suites on Redis (skipped: Redis not reachable at redis://127.0.0.1:1; set REQUIRE_SERVICES=1 to fail instead)' },
      { status: 'skipped', title: 'runs only when PostgreSQL answers' },
      { status: 'passed', title: 'a test that needs neither' },
    ]);
  });

  it('fail the file under REQUIRE_SERVICES=1', async () => {
    const [file] = (await runFixture(true)).testResults;
    expect(file!.status).toBe('failed');
    expect(file!.message).toContain('REQUIRE_SERVICES=1 but PostgreSQL not reachable at postgresql://postgres:***@127.0.0.1:1/test');
    expect(file!.assertionResults).toEqual([]);
  });
});
