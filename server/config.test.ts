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
});
