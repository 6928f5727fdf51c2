// The self-checks at start, in the API process and the worker alike, against the standalone
// sandbox chains in production mode: a Permit2 address without code is an error line naming what
// is no longer offered; an endpoint nothing answers delays no start and is asked again.
import { Writable } from 'node:stream';
import { Wallet } from 'ethers';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from '../../test/helpers/services.ts';
import { sharedSandboxChains, startRpcFaultProxy } from '../../tools/chain-faults/index.ts';
import { loadConfig } from '../config.ts';
import { openRuntime } from './runtime.ts';
import { startSelfChecks } from './self-checks.ts';
import { createAssetRegistry } from '../domain/assets.ts';
import type { ChainPort, SelfCheck } from '../ports/chains.ts';

type Line = { level: number; msg: string; check?: string; outcome?: string };

/** A logger whose lines are kept, and a wait for one of them. */
function capture() {
  const lines: Line[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
        done();
      },
    }),
  );
  const line = async (match: (l: Line) => boolean, ms = 20_000): Promise<Line> => {
    const until = Date.now() + ms;
    for (;;) {
      const found = lines.find(match);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no such log line; got:\n${lines.map((l) => l.msg).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { logger, lines, line };
}

const services = (await postgresAvailable()) && (await redisAvailable());
const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
});

describe('self-checks at start', () => {
  it('a check that cannot be read now is a warning, asked again until it answers; a failure is an error line told once', async () => {
    const answers: SelfCheck['outcome'][] = ['unknown', 'fail', 'fail'];
    let calls = 0;
    const port = {
      namespace: 'eip155',
      selfCheck: async (): Promise<SelfCheck[]> => [{ chain: 'eip155:1', subject: 'permit2', outcome: answers[Math.min(calls++, 2)]!, detail: 'because', refuses: true }],
    } as unknown as ChainPort;
    const { logger, lines, line } = capture();
    const run = startSelfChecks([port], createAssetRegistry([]).all(), logger, { retryMs: 50 });
    try {
      expect((await line((l) => l.outcome === 'unknown')).msg).toMatch(/^self-check could not run: eip155:1 permit2/);
      expect((await line((l) => l.outcome === 'fail')).level).toBe(50);
      // Once answered, nothing is asked again.
      await new Promise((r) => setTimeout(r, 300));
      expect(calls).toBe(2);
      expect(lines.filter((l) => l.outcome === 'fail')).toHaveLength(1);
    } finally {
      run.stop();
    }
  });

  if (services) {
    const envFor = async (chainsEnv: Record<string, string>, over: Record<string, string>) => {
      const schema = uniqueSchema('selfcheck');
      schemas.push(schema);
      await (await createPostgresStorage({ url: postgresUrl, schema })).close();
      return loadConfig({
        ...chainsEnv,
        SERVICE_MODE: 'production',
        PORT: '4998',
        LOGO_CHECKS: 'off',
        DATABASE_URL: `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        REDIS_URL: redisUrl,
        ...over,
      });
    };

    it('API and worker: a Permit2 address without code is an error line at start; the tokens pass', async () => {
      const chains = await sharedSandboxChains();
      const config = await envFor(chains.env, { PERMIT2_ADDRESS: Wallet.createRandom().address });
      for (const role of ['api', 'worker'] as const) {
        const { logger, line } = capture();
        const runtime = await openRuntime(config, { role, logger, print: () => {} });
        try {
          const failed = await line((l) => l.check === 'permit2' && l.outcome === 'fail');
          expect(failed.level, role).toBe(50);
          expect(failed.msg).toMatch(/^self-check failed: eip155:31337 permit2: no contract at PERMIT2_ADDRESS 0x[0-9a-fA-F]{40}; permit2 is not offered on this chain/);
          await line((l) => l.check === 'token USDC' && l.outcome === 'pass');
        } finally {
          await runtime.close();
        }
      }
    }, 120_000);

    it('an endpoint lagging behind the other of its chain (fault proxy): a warning line naming it, nothing refused', async () => {
      const chains = await sharedSandboxChains();
      const proxy = await startRpcFaultProxy({ evmUpstream: chains.evmUrl, nodes: 2 });
      proxy.set('evm:1', { kind: 'lag', by: 5 });
      const config = await envFor(chains.env, { EVM_RPC_URLS: JSON.stringify({ 'eip155:31337': proxy.evmUrls }) });
      const { logger, line } = capture();
      const runtime = await openRuntime(config, { role: 'worker', logger });
      try {
        const behind = await line((l) => l.check === `head ${new URL(proxy.evmUrls[0]!).origin} #2` && l.outcome === 'fail');
        expect(behind.level).toBe(40);
        expect(behind.msg).toMatch(/5 blocks behind another endpoint of the chain \(bound 2\)/);
        await line((l) => l.check === `head ${new URL(proxy.evmUrls[0]!).origin} #1` && l.outcome === 'pass');
        await line((l) => l.check === 'token USDC' && l.outcome === 'pass');
      } finally {
        await runtime.close();
        await proxy.close();
      }
    }, 120_000);

    it('an RPC endpoint nothing answers does not hold the start: the process opens, the checks are a warning', async () => {
      const chains = await sharedSandboxChains();
      const config = await envFor(chains.env, { EVM_RPC_URLS: JSON.stringify({ 'eip155:31337': 'http://127.0.0.1:1/rpc' }), RPC_TIMEOUT_MS: '500' });
      const { logger, line } = capture();
      const started = Date.now();
      const runtime = await openRuntime(config, { role: 'worker', logger });
      try {
        expect(Date.now() - started).toBeLessThan(15_000);
        expect((await line((l) => l.check === 'token USDC' && l.outcome === 'unknown')).level).toBe(40);
      } finally {
        await runtime.close();
      }
    }, 120_000);
  }
});
