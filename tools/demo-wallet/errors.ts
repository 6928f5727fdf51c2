import { ActionExecutionError, GatewayError, GatewayNetworkError, GatewayProtocolError, PaymentExpiredError } from '../../clients/wallet/src/index.ts';

/** A mistake in how the tool was called: the message is shown with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * An expected failure with a message the user can act on (no sandbox, faucet refused, no option
 * to pay with). Printed without a stack trace, exit code 1.
 */
export class DemoWalletError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoWalletError';
  }
}

/**
 * One line for an error the tool expects to meet, or null for a bug. Why by class: the SDK's
 * errors already carry the service's code (`invalid_api_key`, `payment_expired`…), which is what
 * a wallet team needs to see, and a stack trace would only bury it.
 */
export function describeExpectedError(error: unknown): string | null {
  if (error instanceof PaymentExpiredError) {
    const what = error.expired === 'payment' ? 'the payment has expired; ask the merchant for a new link' : 'the quote expired; run the command again for fresh options';
    return `${error.code} (HTTP ${error.status}): ${what} (${error.message})`;
  }
  if (error instanceof GatewayError) {
    const issues = error.issues?.map((i) => `\n  ${i.field}: ${i.message}`).join('') ?? '';
    return `${error.code} (HTTP ${error.status}): ${error.message}${issues}`;
  }
  if (error instanceof GatewayNetworkError) return `cannot reach the service after ${error.attempts} attempts: ${error.message}`;
  if (error instanceof GatewayProtocolError) return `unexpected answer from the service: ${error.message}`;
  if (error instanceof ActionExecutionError) return `action ${error.actionIndex + 1} could not be executed (${error.code}): ${error.message}`;
  if (error instanceof DemoWalletError) return error.message;
  return null;
}
