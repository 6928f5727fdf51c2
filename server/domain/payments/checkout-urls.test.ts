import { describe, expect, it } from 'vitest';
import { checkoutUrlIssues } from './checkout-urls.ts';

describe('checkoutUrlIssues', () => {
  const both = (url: string) => ({ successUrl: url, errorUrl: url });

  it('accepts https everywhere and loopback http only when allowed', () => {
    expect(checkoutUrlIssues(both('https://shop.example/a'), false)).toEqual([]);
    for (const url of ['http://localhost/a', 'http://127.0.0.1:9/a', 'http://[::1]/a']) {
      expect(checkoutUrlIssues(both(url), true), url).toEqual([]);
      expect(
        checkoutUrlIssues(both(url), false).map((i) => i.field),
        url,
      ).toEqual(['checkout.successUrl', 'checkout.errorUrl']);
    }
  });

  it('refuses other schemes, hosts and unparseable text whatever the mode', () => {
    for (const url of ['http://shop.example/a', 'http://127.0.0.2/a', 'http://0.0.0.0/a', 'ws://localhost/a', 'https://', 'not a url']) {
      for (const allow of [true, false])
        expect(checkoutUrlIssues({ successUrl: 'https://ok.example', errorUrl: url }, allow), `${url} ${allow}`).toEqual([
          { field: 'checkout.errorUrl', message: expect.any(String) },
        ]);
    }
  });
});
