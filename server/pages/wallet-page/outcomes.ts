import { ActionExecutionError, GatewayError, PaymentExpiredError } from '../../../clients/wallet/src/index.ts';

export type Tone = 'ok' | 'bad' | 'info';

/** Thrown by the page itself when the buyer's balance cannot cover the option. */
export class InsufficientBalanceError extends Error {}
/** Thrown when the wallet could not be moved to the option's chain. */
export class WrongChainError extends Error {}

/** An EIP-1193 / Wallet Standard error code, looked for where wallets put it (some nest the original). */
function walletCode(error: unknown): number | undefined {
  for (let e = error as { code?: unknown; cause?: unknown; data?: { originalError?: unknown } } | null, depth = 0; e && depth < 4; depth += 1) {
    if (typeof e.code === 'number') return e.code;
    e = e.cause ?? e.data?.originalError ?? null;
  }
  return undefined;
}

/** What a failed attempt means to the buyer, and whether a fresh option is needed to try again. */
export function outcomeOf(error: unknown): { text: string; tone: Tone; refresh: boolean } {
  if (walletCode(error) === 4001 || /reject|denied|declined|cancel/i.test(String((error as Error)?.message))) {
    return { text: 'You declined in your wallet. Nothing was paid; you can try again.', tone: 'bad', refresh: false };
  }
  if (error instanceof WrongChainError) return { text: error.message, tone: 'bad', refresh: false };
  if (error instanceof InsufficientBalanceError) return { text: error.message, tone: 'bad', refresh: false };
  if (error instanceof PaymentExpiredError) {
    return error.expired === 'payment'
      ? { text: 'This payment link has expired. Ask the merchant for a new link.', tone: 'bad', refresh: false }
      : // The expired review (and its Pay button) is hidden: the wallet's own button asks for a fresh option.
        {
          text: 'The price offered to your wallet expired before the payment went through. Nothing was paid: choose your wallet again for a fresh price.',
          tone: 'bad',
          refresh: true,
        };
  }
  if (error instanceof GatewayError) return { text: `The payment service refused: ${error.message}`, tone: 'bad', refresh: true };
  if (error instanceof ActionExecutionError) return { text: `Your wallet could not complete a step: ${error.message}`, tone: 'bad', refresh: true };
  return { text: `Something went wrong: ${(error as Error)?.message ?? String(error)}`, tone: 'bad', refresh: true };
}
