import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the sandbox with pages under /pay on the chosen port', () => {
    const c = loadConfig({ PORT: '4100' }, '/srv');
    expect(c.mode).toBe('sandbox');
    expect(c.payBaseUrl).toBe('http://localhost:4100/pay');
    expect(c.dataDir).toBe('/srv/data');
  });

  it('takes PAY_BASE_URL without its trailing slash', () => {
    expect(loadConfig({ PAY_BASE_URL: 'https://pay.example.com/p/' }).payBaseUrl).toBe('https://pay.example.com/p');
  });

  it('refuses pages under /v1/, where the API lives, and other bad values with the key named', () => {
    expect(() => loadConfig({ PAY_BASE_URL: 'https://example.com/v1/pay' })).toThrow(/PAY_BASE_URL/);
    expect(() => loadConfig({ PAY_BASE_URL: 'ftp://example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_MODE: 'staging' })).toThrow(/SERVICE_MODE/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('limits each key to 100 requests/s with a burst of twice that, unless told otherwise; 0 turns it off', () => {
    expect(loadConfig({}).rateLimit).toEqual({ perSecond: 100, burst: 200 });
    expect(loadConfig({ RATE_LIMIT_PER_S: '5' }).rateLimit).toEqual({ perSecond: 5, burst: 10 });
    expect(loadConfig({ RATE_LIMIT_PER_S: '5', RATE_LIMIT_BURST: '1' }).rateLimit).toEqual({ perSecond: 5, burst: 1 });
    expect(loadConfig({ RATE_LIMIT_PER_S: '0' }).rateLimit).toBeNull();
    expect(() => loadConfig({ RATE_LIMIT_PER_S: '-1' })).toThrow(/RATE_LIMIT_PER_S/);
    expect(() => loadConfig({ RATE_LIMIT_BURST: '0' })).toThrow(/RATE_LIMIT_BURST/);
  });

  it('counts requests without a proven key per address: 5/s with a burst of 30 unless told otherwise; 0 turns it off', () => {
    expect(loadConfig({}).unauthenticatedRateLimit).toEqual({ perSecond: 5, burst: 30 });
    expect(loadConfig({ UNAUTHENTICATED_RATE_PER_S: '2', UNAUTHENTICATED_BURST: '4' }).unauthenticatedRateLimit).toEqual({ perSecond: 2, burst: 4 });
    expect(loadConfig({ UNAUTHENTICATED_RATE_PER_S: '0' }).unauthenticatedRateLimit).toBeNull();
    expect(() => loadConfig({ UNAUTHENTICATED_BURST: '0' })).toThrow(/UNAUTHENTICATED_BURST/);
  });

  it('listens on loopback in the sandbox and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ SERVICE_MODE: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ SERVICE_MODE: 'production', HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });
});
