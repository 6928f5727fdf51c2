import type { ActionResult, WalletRpcAction } from '../gateway/actions.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { CollectedData, PaymentOption, PaymentStatusResult } from '../gateway/types.ts';
import type { WalletSigners } from '../signers/types.ts';
import { executeActions, resolveBuildActions } from './execute-actions.ts';

export interface PayOptions {
  /** Only when the wallet ran its own form; after the web view's IC_COMPLETE send nothing. */
  collectedData?: CollectedData;
  /** Let the confirm call long-poll on the service for up to this long. */
  maxPollMs?: number;
  /** Keep polling status after confirm until the payment is final. */
  waitForFinal?: boolean;
  onAction?: (action: WalletRpcAction, index: number) => void;
}

export interface PayOutcome {
  /** The executed actions: the option's actions with build actions expanded in place. */
  actions: WalletRpcAction[];
  results: ActionResult[];
  status: PaymentStatusResult;
}

/**
 * The whole wallet flow for one chosen option: resolve build actions through fetch, execute
 * everything in order, confirm with the aligned results (and optionally wait until final).
 * Confirm is idempotent on the service, so the client's retries are safe here.
 */
export async function payWithOption(client: GatewayClient, paymentId: string, option: PaymentOption, signers: WalletSigners, options: PayOptions = {}): Promise<PayOutcome> {
  const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(paymentId, { optionId: option.id, data: build.build.data }));
  const results = await executeActions(actions, { ...signers, ...(options.onAction ? { onAction: options.onAction } : {}) });
  const request = { optionId: option.id, results, ...(options.collectedData ? { collectedData: options.collectedData } : {}) };
  let status = await client.confirm(paymentId, request, options.maxPollMs === undefined ? {} : { maxPollMs: options.maxPollMs });
  if (options.waitForFinal === true && !status.isFinal) status = await client.waitForFinal(paymentId);
  return { actions, results, status };
}
