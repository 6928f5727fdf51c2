import path from 'node:path';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';

const { regex, fromProviderState, string, integer, iso8601DateTimeWithMillis } = MatchersV3;

/** Where the consumer run writes pacts and the provider run reads them. */
export const PACT_DIR = path.resolve(import.meta.dirname, '../pacts');
export const PROVIDER = 'merchant-payments-service';

export function pactFor(consumer: string): PactV4 {
  return new PactV4({ consumer, provider: PROVIDER, dir: PACT_DIR, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });
}

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
/** Ids are a type prefix and a ULID; consumers rely on the prefix only to tell kinds apart. */
export const ID_PATTERNS = {
  merchant: `^mrch_${ULID}$`,
  payment: `^pay_${ULID}$`,
  settlement: `^crypto_${ULID}$`,
};
export const EXAMPLE = {
  merchantId: 'mrch_01M81J7YP4A22T3XZPSKQV9K8D',
  otherMerchantId: 'mrch_01M81J7YP4A22T3XZPSKQV9K8E',
  paymentId: 'pay_01M81J7YP4A22T3XZPSKQV9K8F',
  unknownPaymentId: 'pay_01M81J7YP4A22T3XZPSKQV9K8G',
  settlementId: 'crypto_01M81J7YP4A22T3XZPSKQV9K8H',
  /** The sandbox's USDC on its EVM chain (chain id 31337), as the service lists it. */
  evmUsdc: 'eip155:31337/erc20:0x72F57a162f640945AD1eD331755A759980AB7dD8',
  buyer: 'eip155:31337:0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1',
  optionId: 'opt_01M81J7YP4A22T3XZPSKQV9K8J',
  signature: `0x${'ab'.repeat(65)}`,
};

export const merchantId = (example = EXAMPLE.merchantId) => regex(ID_PATTERNS.merchant, example);
export const paymentId = (example = EXAMPLE.paymentId) => regex(ID_PATTERNS.payment, example);
export const settlementId = () => regex(ID_PATTERNS.settlement, EXAMPLE.settlementId);
export const timestamp = () => iso8601DateTimeWithMillis('2026-11-22T12:00:00.000Z');
export const unixSeconds = () => integer(1795350000);
export const caip19 = (example: string) => regex('^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}$', example);
export const caip10 = (example: string) => regex('^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$', example);
export const paymentStatus = (example: string) => regex('^(requires_action|processing|succeeded|failed|expired|cancelled)$', example);

/** A value the provider's state handler returns (an id it created), with the example the consumer test runs on. */
export const injected = <T>(expression: string, example: T) => fromProviderState(expression, example);

/** The documented error body; `code` is compared exactly because consumers branch on it. */
export function errorBody(code: string, extra: Record<string, unknown> = {}) {
  return { message: string('what went wrong'), code, ...extra };
}

/** Runs `fn` and returns what it threw, failing when it did not throw. */
export async function rejection(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
