import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { effectivePort, isOwnHostAddress } from './own-address.ts';
import { createGuardedFetch } from './guarded-fetch.ts';
import { HttpFetchError } from '../../server/ports/http-fetch.ts';

describe('isOwnHostAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '0.0.0.0', '0.1.2.3', '::', '::ffff:127.0.0.1', '::ffff:0.0.0.0'])('counts %s as this host', (a) => {
    expect(isOwnHostAddress(a)).toBe(true);
  });

  it('counts every address of this host’s interfaces, in IPv4-mapped spelling too', () => {
    const mine = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .map((i) => i.address);
    expect(mine.length).toBeGreaterThan(0);
    for (const a of mine) expect(isOwnHostAddress(a)).toBe(true);
    for (const a of mine.filter((x) => !x.includes(':'))) expect(isOwnHostAddress(`::ffff:${a}`)).toBe(true);
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', 'not-an-address'])('does not count %s', (a) => {
    expect(isOwnHostAddress(a)).toBe(false);
  });

  it('takes a URL’s port, or its scheme’s default', () => {
    expect(effectivePort(new URL('https://x.example/'))).toBe(443);
    expect(effectivePort(new URL('http://x.example/'))).toBe(80);
    expect(effectivePort(new URL('http://x.example:3000/'))).toBe(3000);
  });
});

describe('guarded fetch with ownPort', () => {
  it('refuses the own port on this host even where the address is allowed, and never connects', async () => {
    const fetcher = createGuardedFetch({ allowAddresses: [{ hostname: '127.0.0.1', address: '127.0.0.1' }], ownPort: 9 });
    const err = await fetcher.fetch('http://127.0.0.1:9/', { maxBytes: 10, timeoutMs: 1000, connectTimeoutMs: 500, maxRedirects: 0, httpsOnly: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpFetchError);
    expect((err as HttpFetchError).code).toBe('blocked_address');
    expect((err as HttpFetchError).message).toMatch(/this service itself/);
  });

  it('refuses a name that resolves to this host on the own port', async () => {
    const fetcher = createGuardedFetch({ lookup: async () => [{ address: '0.0.0.0', family: 4 }], ownPort: 443 });
    const err = await fetcher.fetch('https://sneaky.example/', { maxBytes: 10, timeoutMs: 1000, connectTimeoutMs: 500, maxRedirects: 0 }).catch((e: unknown) => e);
    expect((err as HttpFetchError).message).toMatch(/this service itself/);
  });
});
