import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFetchOptions, HttpFetchPort } from '../../server/ports/http-fetch.ts';
import { HttpFetchError } from '../../server/ports/http-fetch.ts';
import { createGuardedFetch } from './guarded-fetch.ts';
import {
  closedPort,
  fakeLookup,
  startSilentServer,
  startTestServers,
  streamPaced,
  TEST_ALLOW,
  TEST_HOST,
  type StreamState,
  type TestServers,
} from './test-support/test-servers.ts';

const OPTS: HttpFetchOptions = { maxBytes: 2 * 1024 * 1024, timeoutMs: 5000, connectTimeoutMs: 2000, maxRedirects: 3 };
const TOTAL = 3 * 1024 * 1024;
let servers: TestServers;
let fetcher: HttpFetchPort;
/** What the streaming route managed to send before the client went away. */
let streamed: StreamState | undefined;

async function failure(promise: Promise<unknown>): Promise<HttpFetchError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpFetchError);
  return err as HttpFetchError;
}

beforeAll(async () => {
  servers = await startTestServers();
  fetcher = createGuardedFetch({ lookup: fakeLookup({ [TEST_HOST]: '127.0.0.1' }), ca: servers.ca, allowAddresses: TEST_ALLOW });
  servers.route('/declared-3mb', (_req, res) => {
    res.writeHead(200, { 'content-length': String(TOTAL) });
    res.end(Buffer.alloc(TOTAL));
  });
  // No Content-Length: 3 MB in 256 KB chunks, paced, so the client's early stop is observable here.
  servers.route('/streamed-3mb', (_req, res) => void (streamed = streamPaced(res, Buffer.alloc(TOTAL, 7), 'image/png')));
  servers.route('/exactly-limit', (_req, res) => void res.writeHead(200).end(Buffer.alloc(OPTS.maxBytes)));
  servers.route('/never-ends', (_req, res) => {
    res.writeHead(200, { 'content-length': '100000' });
    res.write(Buffer.alloc(100));
  });
});
afterAll(() => servers.close());

describe('createGuardedFetch: limits', () => {
  it('accepts a body of exactly maxBytes', async () => {
    expect((await fetcher.fetch(servers.httpsUrl('/exactly-limit'), OPTS)).body.length).toBe(OPTS.maxBytes);
  });

  it('refuses a declared Content-Length over maxBytes before reading the body', async () => {
    expect((await failure(fetcher.fetch(servers.httpsUrl('/declared-3mb'), OPTS))).code).toBe('too_large');
  });

  it('stops reading a streamed body once it passes maxBytes', async () => {
    expect((await failure(fetcher.fetch(servers.httpsUrl('/streamed-3mb'), OPTS))).code).toBe('too_large');
    await expect.poll(() => streamed?.closedEarly).toBe(true);
    expect(streamed?.finished).toBe(false);
    expect(streamed?.sent).toBeLessThan(TOTAL);
  });

  it('times out a server that never finishes the body, within the limit', async () => {
    const started = Date.now();
    const err = await failure(fetcher.fetch(servers.httpsUrl('/never-ends'), { ...OPTS, timeoutMs: 400 }));
    expect(err.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('times out the connect phase when the TLS handshake never completes', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const err = await failure(fetcher.fetch(`https://${TEST_HOST}:${silent.port}/x`, { ...OPTS, connectTimeoutMs: 300 }));
      expect(err.code).toBe('timeout');
      expect(err.message).toMatch(/connecting/);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await silent.close();
    }
  });

  it('bounds a DNS lookup that never answers with the total timeout', async () => {
    const hanging = createGuardedFetch({ lookup: () => new Promise(() => undefined) });
    expect((await failure(hanging.fetch('https://slow-dns.test/', { ...OPTS, timeoutMs: 200 }))).code).toBe('timeout');
  });

  it('reports a refused connection as unreachable', async () => {
    const port = await closedPort();
    expect((await failure(fetcher.fetch(`https://${TEST_HOST}:${port}/x`, OPTS))).code).toBe('unreachable');
  });

  it('keeps production trust: without the test CA the test certificate is refused', async () => {
    const untrusting = createGuardedFetch({ lookup: fakeLookup({ [TEST_HOST]: '127.0.0.1' }), allowAddresses: TEST_ALLOW });
    const err = await failure(untrusting.fetch(servers.httpsUrl('/exactly-limit'), OPTS));
    expect(err.code).toBe('unreachable');
    expect(err.message).toMatch(/certificate/);
  });

  it('reports an invalid URL as unreachable', async () => {
    expect((await failure(fetcher.fetch('not a url', OPTS))).code).toBe('unreachable');
  });
});
