// Runs the README's example, as written, against the real service in a child process: only the
// package import is pointed at the source. The test plays the buyer's side by cancelling.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type Service } from './test-support/service.ts';

const here = dirname(fileURLToPath(import.meta.url));
let s: Service;
let dir: string;
beforeAll(async () => {
  s = await startService();
  dir = mkdtempSync(join(tmpdir(), 'mps-partner-readme-'));
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('the README example creates a merchant, settles it, takes a payment and sees it final', async () => {
  const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toContain("from '@mps/partner'");
  const file = join(dir, 'example.ts');
  writeFileSync(file, example!.replace("'@mps/partner'", JSON.stringify(join(here, 'index.ts'))));

  const child = spawn(process.execPath, [file], { env: { ...process.env, MPS_URL: s.t.url, MPS_API_KEY: s.t.a.key } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { client } = s.client();
  const cancelled = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const id = /send the buyer to \S+\/(pay_\w+)/.exec(stdout)?.[1];
      if (id && stdout.includes('status requires_action') && !stdout.includes('cancel sent')) {
        stdout += 'cancel sent\n';
        // The buyer declines: the example's next poll sees a final state.
        client.payments
          .list({ referenceId: 'order-1001' })
          .then((page) => client.payments.cancel(page.data[0]!.merchant.id, id))
          .then(
            () => resolve(),
            (error: unknown) => {
              child.kill();
              reject(error);
            },
          );
      }
    });
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(exitCode).toBe(0);
  await cancelled;
  expect(stdout).toMatch(/send the buyer to https:\/\/pay\.example\.test\/pay_\w+\nstatus requires_action\ncancel sent\nstatus cancelled\n$/);
});
