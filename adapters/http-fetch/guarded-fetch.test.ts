import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFetchOptions, HttpFetchPort } from '../../server/ports/http-fetch.ts';
import { HttpFetchError } from '../../server/ports/http-fetch.ts';
import { createGuardedFetch } from './guarded-fetch.ts';
import { fakeLookup, startTestServers, TEST_ALLOW, TEST_HOST, type TestServers } from './test-support/test-servers.ts';

const OPTS: HttpFetchOptions = { maxBytes: 1024 * 1024, timeoutMs: 5000, connectTimeoutMs: 2000, maxRedirects: 3 };
let servers: TestServers;
let lookup: ReturnType<typeof fakeLookup>;
let fetcher: HttpFetchPort;

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
  lookup = fakeLookup({
    [TEST_HOST]: '127.0.0.1',
    localhost: '127.0.0.1',
    'private.test': '10.0.0.5',
    'metadata.test': '169.254.169.254',
    'mixed.test': ['93.184.215.14', '127.0.0.1'],
    'v6loop.test': '::1',
    'mapped.test': '::ffff:127.0.0.1',
  });
  fetcher = createGuardedFetch({ lookup, ca: servers.ca, allowAddresses: TEST_ALLOW });
  servers.route('/hello', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': req.headers.host ?? '' });
    res.end(`hello ${req.method} ${(req.socket as { servername?: string }).servername ?? ''}`);
  });
  servers.route('/echo', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.writeHead(200).end(`${req.method}:${Buffer.concat(chunks).toString()}`));
  });
  const redirect = (status: number, to: () => string) => servers.route(`/r${status}`, (_req, res) => void res.writeHead(status, { location: to() }).end());
  redirect(302, () => '/hello');
  redirect(303, () => '/echo');
  redirect(307, () => '/echo');
  for (const n of [1, 2, 3, 4]) servers.route(`/chain${n}`, (_req, res) => void res.writeHead(302, { location: n === 1 ? '/hello' : `/chain${n - 1}` }).end());
  servers.route('/to-loopback-ip', (_req, res) => void res.writeHead(302, { location: servers.httpsUrl('/hello', '127.0.0.1') }).end());
  servers.route('/to-localhost', (_req, res) => void res.writeHead(301, { location: servers.httpsUrl('/hello', 'localhost') }).end());
  servers.route('/to-v6', (_req, res) => void res.writeHead(308, { location: servers.httpsUrl('/hello', '[::1]') }).end());
  servers.route('/to-http', (_req, res) => void res.writeHead(302, { location: servers.httpUrl('/hello') }).end());
});
afterAll(() => servers.close());

describe('createGuardedFetch: destinations', () => {
  it('fetches from the allowed test host by its checked address, keeping SNI and Host as the name', async () => {
    const res = await fetcher.fetch(servers.httpsUrl('/hello'), OPTS);
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(res.body)).toBe(`hello GET ${TEST_HOST}`);
    expect(res.headers['x-seen-host']).toBe(`${TEST_HOST}:${servers.httpsPort}`);
    expect(res.finalUrl).toBe(servers.httpsUrl('/hello'));
  });

  it('refuses https://127.0.0.1 itself, though the server would answer if allowed', async () => {
    const before = servers.hits.get('/hello') ?? 0;
    expect((await failure(fetcher.fetch(servers.httpsUrl('/hello', '127.0.0.1'), OPTS))).code).toBe('blocked_address');
    expect(servers.hits.get('/hello') ?? 0).toBe(before);
    const permissive = createGuardedFetch({ lookup, ca: servers.ca, allowAddresses: [{ hostname: '127.0.0.1', address: '127.0.0.1' }] });
    expect((await permissive.fetch(servers.httpsUrl('/hello', '127.0.0.1'), OPTS)).status).toBe(200);
  });

  it.each([
    ['private.test', 'a private (RFC 1918) address'],
    ['metadata.test', 'the link-local metadata address'],
    ['mixed.test', 'a public and a loopback address (every address must be public)'],
    ['v6loop.test', 'IPv6 loopback'],
    ['mapped.test', 'IPv4-mapped loopback'],
    ['localhost', 'loopback under a name that is not the allowed one'],
  ])('refuses %s, which resolves to %s', async (host) => {
    const err = await failure(fetcher.fetch(`https://${host}:${servers.httpsPort}/hello`, OPTS));
    expect(err.code).toBe('blocked_address');
    expect(err.message).not.toMatch(/127\.0\.0\.1|10\.0\.0\.5|169\.254/);
  });

  it.each(['[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '0x7f.0.0.1', '169.254.169.254'])('refuses the literal host %s without DNS', async (host) => {
    const calls = lookup.calls.length;
    expect((await failure(fetcher.fetch(`https://${host}:${servers.httpsPort}/hello`, OPTS))).code).toBe('blocked_address');
    expect(lookup.calls.length).toBe(calls);
  });

  it('reports a name that does not resolve as dns_failure', async () => {
    expect((await failure(fetcher.fetch('https://nowhere.test/logo.png', OPTS))).code).toBe('dns_failure');
  });

  it('refuses http:// without connecting, unless httpsOnly is false', async () => {
    const before = servers.hits.get('/hello') ?? 0;
    expect((await failure(fetcher.fetch(servers.httpUrl('/hello'), OPTS))).code).toBe('not_https');
    expect(servers.hits.get('/hello') ?? 0).toBe(before);
    expect((await fetcher.fetch(servers.httpUrl('/hello'), { ...OPTS, httpsOnly: false })).status).toBe(200);
  });

  it('resolves each hop once and connects to that address (no second lookup to rebind)', async () => {
    const answers = ['127.0.0.1', '10.9.9.9'];
    const rebinding = async () => [{ address: answers.shift() ?? '10.9.9.9', family: 4 }];
    const f = createGuardedFetch({ lookup: rebinding, ca: servers.ca, allowAddresses: TEST_ALLOW });
    expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
    expect(answers).toEqual(['10.9.9.9']);
  });
});

describe('createGuardedFetch: redirects', () => {
  it('follows up to maxRedirects, re-checking every hop', async () => {
    const res = await fetcher.fetch(servers.httpsUrl('/chain3'), OPTS);
    expect(res.status).toBe(200);
    expect(res.finalUrl).toBe(servers.httpsUrl('/hello'));
  });

  it('fails with too_many_redirects past maxRedirects', async () => {
    expect((await failure(fetcher.fetch(servers.httpsUrl('/chain4'), OPTS))).code).toBe('too_many_redirects');
    expect((await failure(fetcher.fetch(servers.httpsUrl('/chain2'), { ...OPTS, maxRedirects: 1 }))).code).toBe('too_many_redirects');
  });

  it('returns the 3xx itself when maxRedirects is 0', async () => {
    const res = await fetcher.fetch(servers.httpsUrl('/r302'), { ...OPTS, maxRedirects: 0 });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/hello');
  });

  it.each(['/to-loopback-ip', '/to-localhost', '/to-v6'])('refuses a redirect from the public-looking host to loopback (%s)', async (path) => {
    const before = servers.hits.get('/hello') ?? 0;
    expect((await failure(fetcher.fetch(servers.httpsUrl(path), OPTS))).code).toBe('blocked_address');
    expect(servers.hits.get('/hello') ?? 0).toBe(before);
  });

  it('refuses a redirect to http:// when httpsOnly', async () => {
    expect((await failure(fetcher.fetch(servers.httpsUrl('/to-http'), OPTS))).code).toBe('not_https');
  });

  it('turns POST into GET on 303 and keeps POST with its body on 307', async () => {
    const post = { ...OPTS, method: 'POST', body: 'payload' };
    expect(new TextDecoder().decode((await fetcher.fetch(servers.httpsUrl('/r303'), post)).body)).toBe('GET:');
    expect(new TextDecoder().decode((await fetcher.fetch(servers.httpsUrl('/r307'), post)).body)).toBe('POST:payload');
  });
});
