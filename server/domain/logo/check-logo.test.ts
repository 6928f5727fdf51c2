import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../../../adapters/http-fetch/index.ts';
import { fakeLookup, startTestServers, streamPaced, TEST_ALLOW, TEST_HOST, type StreamState, type TestServers } from '../../../adapters/http-fetch/test-support/test-servers.ts';
import type { HttpFetchPort } from '../../ports/http-fetch.ts';
import { checkLogo } from './check-logo.ts';
import { HTML_PAGE, makeImage, makeThreeMegabytePng, SVG_LOGO } from './test-support/make-images.ts';

// Integration: the real guarded fetch against a local HTTPS server, exactly as a handler wires it.
let servers: TestServers;
let fetcher: HttpFetchPort;
let streamed: StreamState | undefined;

function serve(path: string, body: Uint8Array, contentType: string): string {
  servers.route(path, (_req, res) => void res.writeHead(200, { 'content-type': contentType }).end(body));
  return servers.httpsUrl(path);
}

beforeAll(async () => {
  servers = await startTestServers();
  fetcher = createGuardedFetch({
    lookup: fakeLookup({ [TEST_HOST]: '127.0.0.1', 'cdn.private.test': '192.168.10.20' }),
    ca: servers.ca,
    allowAddresses: TEST_ALLOW,
  });
  for (const f of ['png', 'jpeg', 'webp', 'avif'] as const) serve(`/logo-1024.${f}`, await makeImage(f, 1024, 1024), `image/${f}`);
  serve('/1000x1040.png', await makeImage('png', 1000, 1040), 'image/png');
  serve('/1000x1060.png', await makeImage('png', 1000, 1060), 'image/png');
  serve('/499.png', await makeImage('png', 499, 499), 'image/png');
  serve('/4097.png', await makeImage('png', 4097, 4097), 'image/png');
  serve('/svg-as-png.png', SVG_LOGO, 'image/png');
  serve('/html-as-png.png', HTML_PAGE, 'image/png');
  const big = await makeThreeMegabytePng();
  serve('/3mb.png', big, 'image/png');
  servers.route('/3mb-streamed.png', (_req, res) => void (streamed = streamPaced(res, big, 'image/png')));
  servers.route('/to-loopback.png', (_req, res) => void res.writeHead(302, { location: servers.httpsUrl('/logo-1024.png', '127.0.0.1') }).end());
  servers.route('/slow-body.png', (_req, res) => void res.writeHead(200, { 'content-length': '50000' }).write(Buffer.alloc(10)));
  for (const n of [1, 2, 3, 4]) {
    servers.route(`/hop${n}.png`, (_req, res) => void res.writeHead(302, { location: n === 1 ? '/logo-1024.png' : `/hop${n - 1}.png` }).end());
  }
}, 60_000);
afterAll(() => servers.close());

async function issuesOf(path: string): Promise<string[]> {
  const result = await checkLogo(servers.httpsUrl(path), fetcher);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues;
}

describe('checkLogo against a local HTTPS server', () => {
  it.each(['png', 'jpeg', 'webp', 'avif'] as const)('accepts a 1024×1024 %s', async (format) => {
    const result = await checkLogo(servers.httpsUrl(`/logo-1024.${format}`), fetcher);
    expect(result).toMatchObject({ ok: true, format, mediaType: `image/${format}`, width: 1024, height: 1024 });
    expect(result.ok && result.bytes.length).toBeGreaterThan(0);
  });

  it('accepts 1000×1040 (3.8 % off square)', async () => {
    expect(await checkLogo(servers.httpsUrl('/1000x1040.png'), fetcher)).toMatchObject({ ok: true, width: 1000, height: 1040 });
  });

  it('rejects 1000×1060 (5.7 % off square) with one issue', async () => {
    expect(await issuesOf('/1000x1060.png')).toEqual([expect.stringMatching(/must be square.*differ by 5\.7 %/)]);
  });

  it('rejects 499×499 as too small', async () => {
    expect(await issuesOf('/499.png')).toEqual([expect.stringMatching(/499×499 px.*at least 500 px/)]);
  });

  it('rejects 4097×4097 as too large', async () => {
    expect(await issuesOf('/4097.png')).toEqual([expect.stringMatching(/4097×4097 px.*at most 4096 px/)]);
  });

  it('rejects a 3 MB image by its declared length', async () => {
    expect(await issuesOf('/3mb.png')).toEqual([expect.stringMatching(/larger than 2 MB \(2097152 bytes\)/)]);
  });

  it('rejects a streamed 3 MB image and stops reading it early', async () => {
    expect(await issuesOf('/3mb-streamed.png')).toEqual([expect.stringMatching(/larger than 2 MB/)]);
    await expect.poll(() => streamed?.closedEarly).toBe(true);
    expect(streamed?.sent).toBeLessThan(3 * 1024 * 1024);
  });

  it.each([
    ['/svg-as-png.png', /JPEG, PNG, WebP or AVIF.*an SVG image/],
    ['/html-as-png.png', /JPEG, PNG, WebP or AVIF.*HTML/],
  ])('rejects %s although served as image/png', async (path, message) => {
    expect(await issuesOf(path)).toEqual([expect.stringMatching(message)]);
  });

  it('rejects an http:// URL without fetching it', async () => {
    const before = servers.hits.get('/logo-1024.png') ?? 0;
    const result = await checkLogo(servers.httpUrl('/logo-1024.png'), fetcher);
    expect(result).toEqual({ ok: false, issues: [expect.stringMatching(/must be an https:\/\/ URL/)] });
    expect(servers.hits.get('/logo-1024.png') ?? 0).toBe(before);
  });

  it('refuses a redirect from the public-looking host to 127.0.0.1', async () => {
    expect(await issuesOf('/to-loopback.png')).toEqual([expect.stringMatching(/not reachable.*127\.0\.0\.1 is not publicly reachable/)]);
  });

  it('refuses a host name that resolves to a private address', async () => {
    const result = await checkLogo(`https://cdn.private.test:${servers.httpsPort}/logo-1024.png`, fetcher);
    expect(result).toEqual({ ok: false, issues: [expect.stringMatching(/not reachable.*cdn\.private\.test.*not publicly reachable/)] });
  });

  it('times out a server that never finishes the body, within the limit', async () => {
    const started = Date.now();
    const result = await checkLogo(servers.httpsUrl('/slow-body.png'), fetcher, { timeoutMs: 500 });
    expect(result).toEqual({ ok: false, issues: [expect.stringMatching(/not reachable.*within 500 ms/)] });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('follows 3 redirects but not 4', async () => {
    expect(await checkLogo(servers.httpsUrl('/hop3.png'), fetcher)).toMatchObject({ ok: true });
    expect(await issuesOf('/hop4.png')).toEqual([expect.stringMatching(/not reachable.*more than 3 redirects/)]);
  });

  it('reports a 404 as not reachable', async () => {
    expect(await issuesOf('/missing.png')).toEqual([expect.stringMatching(/not reachable.*HTTP 404/)]);
  });
});
