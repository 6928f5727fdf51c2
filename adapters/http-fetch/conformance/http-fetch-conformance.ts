import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isHttpFetchError, type AddressPolicyPort, type HttpFetchFailureCode, type HttpFetchOptions, type HttpFetchPort } from '../../../server/ports/http-fetch.ts';
import type { Exact } from '../../../server/domain/vocabulary.ts';
import type { AllowedAddress, LookupFn } from '../resolve-destination.ts';
import { closedPort, fakeLookup, startSilentServer, startTestServers, TEST_ALLOW, TEST_HOST, type TestServers } from '../test-support/test-servers.ts';

/**
 * The network a fetch adapter under test is pointed at: DNS answered from a table, a test
 * certificate authority to trust besides the system's, and the one (name, address) pair it may
 * reach although the address is loopback (the local test servers). Everything else keeps the
 * production rules: the table also maps names to private and metadata addresses, which must be
 * refused.
 */
export interface HttpFetchTestNetwork {
  lookup: LookupFn;
  ca: string;
  allowAddresses: readonly AllowedAddress[];
}

export type HttpFetchFactory = (network: HttpFetchTestNetwork) => HttpFetchPort;

const OPTS: HttpFetchOptions = { maxBytes: 64 * 1024, timeoutMs: 5000, connectTimeoutMs: 2000, maxRedirects: 3 };

/** Every failure code of the port (a new one fails typecheck here until listed); the suite below produces each one. */
const FAILURE_CODES = [
  'blocked_address',
  'not_https',
  'timeout',
  'too_large',
  'too_many_redirects',
  'unreachable',
  'dns_failure',
] as const satisfies readonly HttpFetchFailureCode[];
const _everyCodeListed: Exact<(typeof FAILURE_CODES)[number], HttpFetchFailureCode> = true;

/** Globally routable unicast addresses, IPv4, IPv6 and IPv4-mapped IPv6. */
const PUBLIC_ADDRESSES = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
/** Addresses a fetch must never reach, in every spelling an attacker might pick. */
const NON_PUBLIC_ADDRESSES = [
  ...['10.0.0.5', '172.16.0.1', '192.168.1.1', '100.64.0.1', 'fc00::1'], // private, shared (CGNAT), unique local
  ...['127.0.0.1', '127.1.2.3', '::1', '0.0.0.0', '::'], // loopback, unspecified
  ...['169.254.169.254', 'fe80::1'], // link-local (the cloud metadata address among them)
  ...['::ffff:127.0.0.1', '::ffff:10.0.0.5', '::ffff:169.254.169.254'], // IPv4-mapped IPv6
  ...['224.0.0.1', '192.0.2.1'], // multicast, documentation
  'not an address',
];

/**
 * What every HttpFetchPort adapter must do, against local HTTPS/HTTP servers: the one method
 * (`fetch`) with every option (method, headers, body, maxBytes, timeoutMs, connectTimeoutMs,
 * maxRedirects, httpsOnly), every response field (status, headers, body, finalUrl), and every
 * failure code, each rejection an HttpFetchError that `isHttpFetchError` recognises. The adapter's
 * address policy (what the guard knows about addresses, used before any fetch) is checked too.
 */
export function runHttpFetchConformance(name: string, factory: HttpFetchFactory, addressPolicy: AddressPolicyPort): void {
  describe(`address policy conformance: ${name}`, () => {
    it('calls public only globally routable unicast addresses, whatever their spelling', () => {
      for (const a of PUBLIC_ADDRESSES) expect(addressPolicy.isPublic(a), a).toBe(true);
      for (const a of NON_PUBLIC_ADDRESSES) expect(addressPolicy.isPublic(a), a).toBe(false);
    });

    it("knows this host's own addresses: loopback, unspecified, every interface address (also IPv4-mapped), and nothing else", () => {
      for (const a of ['127.0.0.1', '127.1.2.3', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1']) expect(addressPolicy.isOwnHostAddress(a), a).toBe(true);
      const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => ({ address: i.address, v4: i.family === 'IPv4' })));
      expect(own.length).toBeGreaterThan(0);
      for (const { address, v4 } of own) {
        expect(addressPolicy.isOwnHostAddress(address), address).toBe(true);
        if (v4) expect(addressPolicy.isOwnHostAddress(`::ffff:${address}`), `::ffff:${address}`).toBe(true);
      }
      const ownSet = new Set(own.map((i) => i.address));
      for (const a of ['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '192.0.2.1', '10.255.255.254', 'not an address']) {
        if (!ownSet.has(a)) expect(addressPolicy.isOwnHostAddress(a), a).toBe(false);
      }
    });
  });

  describe(`http fetch conformance: ${name}`, () => {
    let servers: TestServers;
    let fetcher: HttpFetchPort;
    const produced = new Set<HttpFetchFailureCode>();

    /** The rejection of `promise`, which must be a port error with `code` naming the URL it failed at. */
    async function failure(promise: Promise<unknown>, code: HttpFetchFailureCode) {
      const err = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isHttpFetchError(err), `expected an HttpFetchError ${code}, got ${String(err)}`).toBe(true);
      if (!isHttpFetchError(err)) throw new Error('unreachable');
      expect(err.code).toBe(code);
      expect(typeof err.url).toBe('string');
      expect(err.message.length).toBeGreaterThan(0);
      produced.add(code);
      return err;
    }

    beforeAll(async () => {
      servers = await startTestServers();
      fetcher = factory({
        lookup: fakeLookup({ [TEST_HOST]: '127.0.0.1', 'private.test': '10.0.0.5', 'metadata.test': '169.254.169.254' }),
        ca: servers.ca,
        allowAddresses: TEST_ALLOW,
      });
      servers.route('/hello', (req, res) => {
        res.setHeader('x-multi', ['a', 'b']);
        res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Seen-Host': req.headers.host ?? '' });
        res.end('hello');
      });
      servers.route('/echo', (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => res.writeHead(200, { 'x-method': req.method ?? '', 'x-token': String(req.headers['x-token'] ?? '') }).end(Buffer.concat(chunks)));
      });
      servers.route('/unavailable', (_req, res) => void res.writeHead(503).end('later'));
      servers.route('/bytes', (_req, res) => void res.writeHead(200).end(Buffer.from([0, 1, 2, 253, 254, 255])));
      servers.route('/large', (_req, res) => void res.writeHead(200).end(Buffer.alloc(OPTS.maxBytes + 1)));
      servers.route('/exact', (_req, res) => void res.writeHead(200).end(Buffer.alloc(OPTS.maxBytes)));
      servers.route('/never-ends', (_req, res) => {
        res.writeHead(200, { 'content-length': '1000' });
        res.write(Buffer.alloc(10));
      });
      for (const n of [1, 2, 3, 4]) servers.route(`/chain${n}`, (_req, res) => void res.writeHead(302, { location: n === 1 ? '/hello' : `/chain${n - 1}` }).end());
      servers.route('/to-private', (_req, res) => void res.writeHead(302, { location: `https://private.test:${servers.httpsPort}/hello` }).end());
    });
    afterAll(async () => {
      await servers.close();
    });

    it('answers status, lower-case headers (repeated ones joined), the body bytes and the final URL', async () => {
      const url = servers.httpsUrl('/hello');
      const res = await fetcher.fetch(url, OPTS);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.headers['x-multi']).toBe('a, b');
      expect(Object.keys(res.headers).every((k) => k === k.toLowerCase())).toBe(true);
      expect(new TextDecoder().decode(res.body)).toBe('hello');
      expect(res.finalUrl).toBe(url);
      const bytes = await fetcher.fetch(servers.httpsUrl('/bytes'), OPTS);
      expect(bytes.body).toBeInstanceOf(Uint8Array);
      expect([...bytes.body]).toEqual([0, 1, 2, 253, 254, 255]);
    });

    it('sends the method, headers and body given (string or bytes), never a caller’s Host', async () => {
      const text = await fetcher.fetch(servers.httpsUrl('/echo'), { ...OPTS, method: 'post', headers: { 'X-Token': 't1', host: 'evil.test' }, body: '{"a":1}' });
      expect([text.headers['x-method'], text.headers['x-token'], new TextDecoder().decode(text.body)]).toEqual(['POST', 't1', '{"a":1}']);
      const bytes = await fetcher.fetch(servers.httpsUrl('/echo'), { ...OPTS, method: 'PUT', body: new Uint8Array([7, 8, 9]) });
      expect([bytes.headers['x-method'], [...bytes.body]]).toEqual(['PUT', [7, 8, 9]]);
      const seen = await fetcher.fetch(servers.httpsUrl('/hello'), { ...OPTS, headers: { host: 'evil.test' } });
      expect(seen.headers['x-seen-host']).toBe(`${TEST_HOST}:${servers.httpsPort}`);
    });

    it('resolves with 4xx and 5xx answers rather than rejecting', async () => {
      expect((await fetcher.fetch(servers.httpsUrl('/unavailable'), OPTS)).status).toBe(503);
      expect((await fetcher.fetch(servers.httpsUrl('/no-such-path'), OPTS)).status).toBe(404);
    });

    it('follows up to maxRedirects (finalUrl the last hop), returns the 3xx itself with 0, and fails past the limit', async () => {
      const followed = await fetcher.fetch(servers.httpsUrl('/chain3'), OPTS);
      expect([followed.status, followed.finalUrl]).toEqual([200, servers.httpsUrl('/hello')]);
      const unfollowed = await fetcher.fetch(servers.httpsUrl('/chain1'), { ...OPTS, maxRedirects: 0 });
      expect([unfollowed.status, unfollowed.headers.location, unfollowed.finalUrl]).toEqual([302, '/hello', servers.httpsUrl('/chain1')]);
      await failure(fetcher.fetch(servers.httpsUrl('/chain4'), OPTS), 'too_many_redirects');
    });

    it('refuses http:// unless httpsOnly is false', async () => {
      const before = servers.hits.get('/hello') ?? 0;
      await failure(fetcher.fetch(servers.httpUrl('/hello'), OPTS), 'not_https');
      expect(servers.hits.get('/hello') ?? 0).toBe(before);
      expect((await fetcher.fetch(servers.httpUrl('/hello'), { ...OPTS, httpsOnly: false })).status).toBe(200);
    });

    it('refuses non-public destinations without connecting: private, metadata and loopback addresses, also behind a redirect', async () => {
      await failure(fetcher.fetch(`https://private.test:${servers.httpsPort}/hello`, OPTS), 'blocked_address');
      await failure(fetcher.fetch('https://metadata.test/latest/meta-data/', OPTS), 'blocked_address');
      await failure(fetcher.fetch(servers.httpsUrl('/hello', '127.0.0.1'), OPTS), 'blocked_address');
      await failure(fetcher.fetch(servers.httpsUrl('/to-private'), OPTS), 'blocked_address');
    });

    it('accepts a body of exactly maxBytes and refuses a larger one', async () => {
      expect((await fetcher.fetch(servers.httpsUrl('/exact'), OPTS)).body.length).toBe(OPTS.maxBytes);
      await failure(fetcher.fetch(servers.httpsUrl('/large'), OPTS), 'too_large');
    });

    it('times out the whole call at timeoutMs, and the connect at connectTimeoutMs', async () => {
      let started = Date.now();
      await failure(fetcher.fetch(servers.httpsUrl('/never-ends'), { ...OPTS, timeoutMs: 300 }), 'timeout');
      expect(Date.now() - started).toBeLessThan(2000);
      const silent = await startSilentServer();
      try {
        started = Date.now();
        await failure(fetcher.fetch(`https://${TEST_HOST}:${silent.port}/x`, { ...OPTS, connectTimeoutMs: 300 }), 'timeout');
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        await silent.close();
      }
    });

    it('reports a refused connection or a malformed URL as unreachable, and an unknown name as dns_failure', async () => {
      await failure(fetcher.fetch(`https://${TEST_HOST}:${await closedPort()}/x`, OPTS), 'unreachable');
      await failure(fetcher.fetch('not a url', OPTS), 'unreachable');
      await failure(fetcher.fetch('https://nowhere.test/', OPTS), 'dns_failure');
    });

    describe('kept-alive connections', () => {
      // The shared fetcher's idle sockets would blur the server-side connection counts below.
      beforeEach(() => fetcher.close?.());
      /** A fetcher of its own (own connections, DNS table the test may change), closed after the test. */
      function isolated(table: Record<string, string> = { [TEST_HOST]: '127.0.0.1' }): HttpFetchPort {
        return factory({ lookup: fakeLookup(table), ca: servers.ca, allowAddresses: TEST_ALLOW });
      }
      async function until(condition: () => boolean, what: string): Promise<void> {
        const deadline = Date.now() + 2000;
        while (!condition()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      }

      it('sends sequential requests to one destination over one connection (https and http)', async () => {
        const f = isolated();
        try {
          const before = servers.connectionsAccepted();
          for (let i = 0; i < 3; i++) expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
          expect((await f.fetch(servers.httpsUrl('/echo'), { ...OPTS, method: 'POST', body: 'x' })).status).toBe(200);
          expect(servers.connectionsAccepted() - before).toBe(1);
          for (let i = 0; i < 2; i++) expect((await f.fetch(servers.httpUrl('/hello'), { ...OPTS, httpsOnly: false })).status).toBe(200);
          expect(servers.connectionsAccepted() - before).toBe(2);
        } finally {
          f.close?.();
        }
      });

      it('checks the destination again before reusing: a name now resolving to a private address is refused while a socket to the old one is idle', async () => {
        const table: Record<string, string> = { [TEST_HOST]: '127.0.0.1' };
        const f = isolated(table);
        try {
          expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
          expect(servers.connectionsOpen()).toBeGreaterThan(0); // the idle keep-alive socket
          const hits = servers.hits.get('/hello') ?? 0;
          table[TEST_HOST] = '10.0.0.5';
          await failure(f.fetch(servers.httpsUrl('/hello'), OPTS), 'blocked_address');
          expect(servers.hits.get('/hello') ?? 0).toBe(hits);
        } finally {
          f.close?.();
        }
      });

      it('does not keep a socket whose response was over the body limit, nor one that timed out', async () => {
        const f = isolated();
        try {
          await until(() => servers.connectionsOpen() === 0, 'earlier connections closed');
          expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
          await failure(f.fetch(servers.httpsUrl('/large'), OPTS), 'too_large'); // on the kept socket
          await until(() => servers.connectionsOpen() === 0, 'the over-limit socket is closed');
          const afterLarge = servers.connectionsAccepted();
          expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
          expect(servers.connectionsAccepted() - afterLarge).toBe(1); // a new connection, not the over-limit one
          await failure(f.fetch(servers.httpsUrl('/never-ends'), { ...OPTS, timeoutMs: 300 }), 'timeout');
          await until(() => servers.connectionsOpen() === 0, 'the timed-out socket is closed');
          const before = servers.connectionsAccepted();
          expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
          expect(servers.connectionsAccepted() - before).toBe(1);
        } finally {
          f.close?.();
        }
      });

      it('closes idle connections on close(), and still fetches afterwards', async () => {
        const f = isolated();
        expect(typeof f.close).toBe('function');
        await until(() => servers.connectionsOpen() === 0, 'earlier connections closed');
        expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
        expect(servers.connectionsOpen()).toBe(1);
        f.close?.();
        await until(() => servers.connectionsOpen() === 0, 'the idle socket is closed');
        expect((await f.fetch(servers.httpsUrl('/hello'), OPTS)).status).toBe(200);
        f.close?.();
      });
    });

    it('produced every failure code of the port', () => {
      expect([...produced].sort()).toEqual([...FAILURE_CODES].sort());
    });
  });
}
