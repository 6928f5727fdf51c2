import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../adapters/http-fetch/index.ts';
import { fakeLookup, startTestServers, TEST_ALLOW, TEST_HOST, type TestServers } from '../adapters/http-fetch/test-support/test-servers.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createLogoIssueChecker } from '../server/domain/logo/index.ts';
import { makeImage } from '../server/domain/logo/test-support/make-images.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/** The logo rules as a partner meets them: through merchant create and update. */
describe('merchant iconUrl is checked on create and update', () => {
  let servers: TestServers;
  let t: TestApp;
  beforeAll(async () => {
    servers = await startTestServers();
    const serve = async (path: string, w: number, h: number) => {
      const body = await makeImage('png', w, h);
      servers.route(path, (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(body));
    };
    await serve('/square.png', 1024, 1024);
    await serve('/tall.png', 1000, 1060);
    servers.route('/to-loopback.png', (_req, res) => void res.writeHead(302, { location: servers.httpsUrl('/square.png', '127.0.0.1') }).end());
    const fetcher = createGuardedFetch({ lookup: fakeLookup({ [TEST_HOST]: '127.0.0.1', 'cdn.internal.test': '10.0.0.8' }), ca: servers.ca, allowAddresses: TEST_ALLOW });
    t = await startTestApp(await openEmbeddedStorage(), { checkLogo: createLogoIssueChecker(fetcher) });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
    await servers?.close();
  });

  const create = (iconUrl: string) =>
    t.call('POST', '/v1/merchants', {
      key: t.a.key,
      headers: { 'Idempotency-Key': `logo-${Math.random()}` },
      body: { merchantName: 'Logo Co', merchantEmail: 'a@logo.co', iconUrl },
    });

  it('accepts a square PNG and stores the URL as given', async () => {
    const url = servers.httpsUrl('/square.png');
    const r = await create(url);
    expect(r.status).toBe(201);
    const got = await t.call('GET', `/v1/merchants/${r.body.merchant.id}`, { key: t.a.key });
    expect(got.body.merchant.iconUrl).toBe(url);
  });

  it('rejects a logo 6 % off square on update with one issue on iconUrl, leaving the old logo', async () => {
    const ok = await create(servers.httpsUrl('/square.png'));
    const r = await t.call('PATCH', `/v1/merchants/${ok.body.merchant.id}`, { key: t.a.key, body: { iconUrl: servers.httpsUrl('/tall.png') } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
    expect(r.body.issues).toHaveLength(1);
    expect(r.body.issues[0]).toMatchObject({ field: 'iconUrl', message: expect.stringMatching(/square/i) });
    const got = await t.call('GET', `/v1/merchants/${ok.body.merchant.id}`, { key: t.a.key });
    expect(got.body.merchant.iconUrl).toBe(servers.httpsUrl('/square.png'));
  });

  it('refuses a redirect to a loopback address and a host resolving to a private address', async () => {
    for (const url of [servers.httpsUrl('/to-loopback.png'), 'https://cdn.internal.test/logo.png']) {
      const r = await create(url);
      expect(r.status, url).toBe(400);
      expect(r.body.issues[0].field).toBe('iconUrl');
    }
  });
});
