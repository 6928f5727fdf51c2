import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpFetchOptions, HttpFetchPort } from '../../ports/http-fetch.ts';
import { HttpFetchError } from '../../ports/http-fetch.ts';
import { checkLogo, createLogoIssueChecker } from './check-logo.ts';
import { makeImage } from './test-support/make-images.ts';

// Unit: checkLogo's rules against a scripted HttpFetchPort (no network).
type Call = { url: string; options: HttpFetchOptions };

function scriptedPort(answer: (url: string) => Uint8Array | Error, status = 200): HttpFetchPort & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async fetch(url, options) {
      calls.push({ url, options });
      const out = answer(url);
      if (out instanceof Error) throw out;
      return { status, headers: { 'content-type': 'image/png' }, body: out, finalUrl: url };
    },
  };
}

const URL_OK = 'https://cdn.example.com/logo.png';
let avif: Buffer;

beforeAll(async () => {
  avif = await makeImage('avif', 1024, 1024);
});

describe('checkLogo rules', () => {
  it('asks the port for at most 2 MB over HTTPS with bounded time and 3 redirects', async () => {
    const port = scriptedPort(() => new Uint8Array(0));
    await checkLogo(URL_OK, port);
    expect(port.calls).toEqual([
      { url: URL_OK, options: expect.objectContaining({ maxBytes: 2 * 1024 * 1024, maxRedirects: 3, httpsOnly: true, timeoutMs: 10_000, connectTimeoutMs: 5_000 }) },
    ]);
  });

  it.each([
    ['http://cdn.example.com/logo.png', /https:\/\//],
    ['ftp://cdn.example.com/logo.png', /https:\/\//],
    ['/relative/logo.png', /absolute https:\/\/ URL/],
  ])('rejects %s without calling the port', async (url, message) => {
    const port = scriptedPort(() => new Uint8Array(0));
    expect(await checkLogo(url, port)).toEqual({ ok: false, issues: [expect.stringMatching(message)] });
    expect(port.calls).toHaveLength(0);
  });

  it('reports every failed rule as its own issue', async () => {
    const png = await makeImage('png', 400, 1000);
    const result = await checkLogo(
      URL_OK,
      scriptedPort(() => png),
    );
    expect(result).toEqual({
      ok: false,
      issues: [expect.stringMatching(/at least 500 px/), expect.stringMatching(/must be square.*60\.0 %/)],
    });
  });

  it('rejects a damaged image whose magic bytes are right', async () => {
    const damaged = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('garbage')]);
    expect(
      await checkLogo(
        URL_OK,
        scriptedPort(() => damaged),
      ),
    ).toEqual({ ok: false, issues: [expect.stringMatching(/could not be read as a PNG/)] });
  });

  it.each([['avis'], ['mif1']])('reads the dimensions of an AVIF whose major brand is %s', async (brand) => {
    const copy = Buffer.from(avif);
    copy.write(brand, 8, 'latin1');
    expect(
      await checkLogo(
        URL_OK,
        scriptedPort(() => copy),
      ),
    ).toMatchObject({ ok: true, format: 'avif', width: 1024, height: 1024 });
  });

  it('rejects a body over the limit even if the port returned it', async () => {
    const result = await checkLogo(
      URL_OK,
      scriptedPort(() => new Uint8Array(600)),
      { maxBytes: 500 },
    );
    expect(result).toEqual({ ok: false, issues: [expect.stringMatching(/larger than .*\(500 bytes\)/)] });
  });

  it.each([
    ['too_large', /larger than 2 MB/],
    ['not_https', /redirects to a URL that is not https/],
    ['timeout', /not reachable: took too long/],
    ['blocked_address', /not reachable: took too long/],
    ['dns_failure', /not reachable: took too long/],
    ['unreachable', /not reachable: took too long/],
    ['too_many_redirects', /not reachable: took too long/],
  ] as const)('maps a %s fetch failure to a partner message', async (code, message) => {
    const port = scriptedPort((url) => new HttpFetchError(code, 'took too long', url));
    expect(await checkLogo(URL_OK, port)).toEqual({ ok: false, issues: [expect.stringMatching(message)] });
  });

  it('reports a non-200 status as not reachable', async () => {
    expect(
      await checkLogo(
        URL_OK,
        scriptedPort(() => new Uint8Array(0), 403),
      ),
    ).toEqual({ ok: false, issues: ['iconUrl is not reachable: the server answered HTTP 403'] });
  });

  it('lets a programming error in the port surface instead of blaming the partner', async () => {
    await expect(
      checkLogo(
        URL_OK,
        scriptedPort(() => new TypeError('bug')),
      ),
    ).rejects.toThrow('bug');
  });
});

describe('createLogoIssueChecker', () => {
  it('answers no messages for an acceptable logo and the issues otherwise', async () => {
    const check = createLogoIssueChecker(scriptedPort(() => avif));
    expect(await check(URL_OK)).toEqual([]);
    expect(await check('http://cdn.example.com/logo.png')).toEqual([expect.stringMatching(/https:\/\//)]);
  });
});
