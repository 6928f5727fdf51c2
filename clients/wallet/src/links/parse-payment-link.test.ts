import { describe, expect, it } from 'vitest';
import { parsePaymentLink, type PaymentLinkResult } from './parse-payment-link.ts';

const ID = 'pay_01JQ7Z8X9ABCDEFGHJKMNPQRST';
const payHost = 'pay.example';
const parse = (input: string): PaymentLinkResult => parsePaymentLink(input, { payHost });
const payment = { kind: 'payment', paymentId: ID };
const rejected = (reason: string) => ({ kind: 'not_payment_link', reason });

describe('parsePaymentLink: accepted forms', () => {
  it.each([
    ['path URL', `https://pay.example/${ID}`],
    ['path URL with trailing slash', `https://pay.example/${ID}/`],
    ['query URL', `https://pay.example/?pid=${ID}`],
    ['query URL without slash', `https://pay.example?pid=${ID}`],
    ['subdomain', `https://eu.pay.example/${ID}`],
    ['uppercase host', `https://PAY.EXAMPLE/${ID}`],
    ['uppercase scheme', `HTTPS://pay.example/${ID}`],
    ['trailing dot (same DNS name)', `https://pay.example./${ID}`],
    ['surrounding whitespace', `  https://pay.example/${ID}\n`],
    ['bare id', ID],
    ['pairing URI with encoded query URL', `wc:abc123@2?relay-protocol=irn&symKey=00ff&pay=${encodeURIComponent(`https://pay.example/?pid=${ID}`)}`],
    ['pairing URI with encoded path URL', `wc:abc123@2?pay=${encodeURIComponent(`https://pay.example/${ID}`)}`],
  ])('%s', (_name, input) => {
    expect(parse(input)).toEqual(payment);
  });

  it('accepts a configured host with a port, but only on that port', () => {
    expect(parsePaymentLink(`https://pay.example:8443/${ID}`, { payHost: 'pay.example:8443' })).toEqual(payment);
    expect(parsePaymentLink(`https://pay.example/${ID}`, { payHost: 'pay.example:8443' })).toEqual(rejected('untrusted_host'));
    expect(parse(`https://pay.example:8443/${ID}`)).toEqual(rejected('untrusted_host'));
  });

  it('reads links under the configured pay path, such as the local default http://localhost:3000/pay/<id>', () => {
    const opts = { payHost: 'localhost:3000', allowInsecureHttp: true, payPath: '/pay' };
    expect(parsePaymentLink(`http://localhost:3000/pay/${ID}`, opts)).toEqual(payment);
    expect(parsePaymentLink(`http://localhost:3000/pay/?pid=${ID}`, opts)).toEqual(payment);
    expect(parsePaymentLink(`http://localhost:3000/${ID}`, opts)).toEqual(rejected('missing_payment_id'));
    expect(parsePaymentLink(`http://localhost:3000/other/${ID}`, opts)).toEqual(rejected('missing_payment_id'));
    expect(parsePaymentLink(`http://evil.test/pay/${ID}`, opts)).toEqual(rejected('untrusted_host'));
    expect(() => parsePaymentLink(ID, { payHost, payPath: 'pay' })).toThrow(TypeError);
  });

  it('accepts http only when explicitly allowed for local development', () => {
    const link = `http://localhost:3000/${ID}`;
    expect(parsePaymentLink(link, { payHost: 'localhost:3000' })).toEqual(rejected('insecure_scheme'));
    expect(parsePaymentLink(link, { payHost: 'localhost:3000', allowInsecureHttp: true })).toEqual(payment);
  });
});

describe('parsePaymentLink: untrusted hosts are rejected before the id is read', () => {
  it.each([
    ['look-alike suffix without a dot', `https://evilpay.example/${ID}`],
    ['pay host as a subdomain of another domain', `https://pay.example.evil.com/${ID}`],
    ['pay host as a label prefix', `https://pay.example-evil.com/${ID}`],
    ['unrelated host', `https://evil.com/?pid=${ID}`],
    ['backslash trick', `https://evil.com\\@pay.example/${ID}`],
    ['look-alike with trailing dot', `https://evilpay.example./${ID}`],
    ['empty label', `https://evil..pay.example/${ID}`],
  ])('%s', (_name, input) => {
    expect(parse(input)).toEqual(rejected('untrusted_host'));
  });

  it.each([
    ['userinfo pointing at another host', `https://pay.example@evil.com/${ID}`],
    ['userinfo on the trusted host', `https://user:pw@pay.example/${ID}`],
  ])('%s', (_name, input) => {
    expect(parse(input)).toEqual(rejected('credentials_in_url'));
  });

  it.each([
    ['http', `http://pay.example/${ID}`, 'insecure_scheme'],
    ['javascript', `javascript:alert('${ID}')`, 'unrecognised'],
    ['ftp', `ftp://pay.example/${ID}`, 'unrecognised'],
    ['custom scheme', `mywallet://pay.example/${ID}`, 'unrecognised'],
    ['no scheme', `pay.example/${ID}`, 'unrecognised'],
  ])('other scheme: %s', (_name, input, reason) => {
    expect(parse(input)).toEqual(rejected(reason));
  });

  it('rejects a pairing URI whose pay link is on an untrusted host', () => {
    const pay = encodeURIComponent(`https://evilpay.example/?pid=${ID}`);
    expect(parse(`wc:abc@2?pay=${pay}`)).toEqual(rejected('untrusted_host'));
  });
});

describe('parsePaymentLink: ordering and non-payment inputs', () => {
  it('classes a payment link inside a wc: URI as a payment, not a pairing', () => {
    const uri = `wc:7f6e@2?relay-protocol=irn&symKey=abcd&pay=${encodeURIComponent(`https://pay.example/?pid=${ID}`)}`;
    expect(parse(uri)).toEqual(payment);
  });

  it('leaves a plain pairing URI (no pay parameter) to the caller', () => {
    expect(parse('wc:7f6e@2?relay-protocol=irn&symKey=abcd')).toEqual(rejected('pairing_uri'));
    expect(parse('wc:7f6e@2')).toEqual(rejected('pairing_uri'));
  });

  it.each([
    ['empty', '   ', 'empty'],
    ['malformed pairing URI', 'wc:?pay=x', 'unrecognised'],
    ['trusted host without id', 'https://pay.example/', 'missing_payment_id'],
    ['trusted host with deeper path', `https://pay.example/a/${ID}`, 'missing_payment_id'],
    ['trusted host with non-payment id', 'https://pay.example/mrch_123', 'invalid_payment_id'],
    ['query id with a bad prefix', 'https://pay.example/?pid=mrch_1', 'invalid_payment_id'],
    ['id with a path separator in the query', `https://pay.example/?pid=${ID}%2F..`, 'invalid_payment_id'],
    ['malformed percent-encoding', 'https://pay.example/pay_%E0%A4%A', 'invalid_payment_id'],
    ['bare id with junk', `${ID} extra`, 'unrecognised'],
    ['bare prefix only', 'pay_', 'unrecognised'],
    ['random text', 'hello world', 'unrecognised'],
  ])('%s', (_name, input, reason) => {
    expect(parse(input)).toEqual(rejected(reason));
  });

  it('refuses a payHost that is not a bare host', () => {
    expect(() => parsePaymentLink(ID, { payHost: 'https://pay.example/path' })).toThrow(TypeError);
    expect(() => parsePaymentLink(ID, { payHost: ' ' })).toThrow(TypeError);
  });
});
