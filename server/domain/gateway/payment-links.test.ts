import { describe, expect, it } from 'vitest';
import { resolvePaymentRef } from './payment-links.ts';

const HOST = 'pay.example.com';
const ID = 'pay_01KAXYZ0123456789ABCDEFGHJ';
const forms = [ID, `https://${HOST}/${ID}`, `https://${HOST}/?pid=${ID}`, `wc:abc@2?pay=${encodeURIComponent(`https://${HOST}/?pid=${ID}`)}`, `https://sub.${HOST}/${ID}`];

describe('resolvePaymentRef', () => {
  it('reads every link form as the router hands it over, and encoded once or twice more', () => {
    for (const form of forms) {
      expect(resolvePaymentRef(form, HOST)).toBe(ID);
      expect(resolvePaymentRef(encodeURIComponent(form), HOST)).toBe(ID);
      expect(resolvePaymentRef(encodeURIComponent(encodeURIComponent(form)), HOST)).toBe(ID);
    }
  });

  it('trusts only the pay host and its subdomains, however many times the link was encoded', () => {
    for (const evil of [
      `https://evil.test/${ID}`,
      `https://${HOST}.evil.test/${ID}`,
      `https://user@evil.test/${ID}`,
      `ftp://${HOST}/${ID}`,
      `wc:abc@2?pay=${encodeURIComponent(`https://evil.test/?pid=${ID}`)}`,
    ]) {
      expect(resolvePaymentRef(evil, HOST)).toBeNull();
      expect(resolvePaymentRef(encodeURIComponent(encodeURIComponent(evil)), HOST)).toBeNull();
    }
  });

  it('stops after two extra decodes and on malformed escapes', () => {
    const thrice = encodeURIComponent(encodeURIComponent(encodeURIComponent(`https://${HOST}/${ID}`)));
    expect(resolvePaymentRef(thrice, HOST)).toBeNull();
    expect(resolvePaymentRef('https%3A%2F%2Fpay.example.com%2F%E0%A4%A', HOST)).toBeNull();
    expect(resolvePaymentRef('pay_bad-id', HOST)).toBeNull();
  });
});
