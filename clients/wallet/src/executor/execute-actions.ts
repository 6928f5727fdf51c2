import type { ActionResult, PaymentAction, WalletRpcAction } from '../gateway/actions.ts';
import type { WalletSigners } from '../signers/types.ts';
import { ActionExecutionError } from './errors.ts';
import { planAction } from './plan-action.ts';

/** Turns one build action into the wallet RPC actions it stands for (the gateway fetch call). */
export type BuildResolver = (action: Extract<PaymentAction, { type: 'build' }>) => Promise<WalletRpcAction[]>;

export interface ExecutionContext extends WalletSigners {
  resolveBuild?: BuildResolver;
  /** Called just before each action runs, e.g. to show "approve in your wallet" UI. */
  onAction?: (action: WalletRpcAction, index: number) => void;
}

/**
 * Replaces every build action, in place, by the wallet RPC actions it resolves to. The
 * resulting list is what gets executed, and the confirm results align with it one to one:
 * a build that resolves to two calls yields two results at its position.
 */
export async function resolveBuildActions(actions: PaymentAction[], resolveBuild?: BuildResolver): Promise<WalletRpcAction[]> {
  const resolved: WalletRpcAction[] = [];
  for (const action of actions) {
    if (action.type === 'walletRpc') {
      resolved.push(action);
      continue;
    }
    if (resolveBuild === undefined) {
      throw new ActionExecutionError('unresolved_build', 'a build action needs resolveBuild (the gateway fetch call)', { actionIndex: resolved.length });
    }
    const expanded = await resolveBuild(action);
    if (expanded.length === 0) {
      throw new ActionExecutionError('unresolved_build', 'a build action resolved to no actions', { actionIndex: resolved.length });
    }
    resolved.push(...expanded);
  }
  return resolved;
}

/**
 * Executes an option's actions in order and returns one `{ type: 'walletRpc', data: [value] }`
 * per resolved action, in the same order. Every action is validated (namespace, method,
 * signer, params) before the first one runs, so an option that cannot be completed fails
 * before anything is signed or broadcast.
 */
export async function executeActions(actions: PaymentAction[], context: ExecutionContext): Promise<ActionResult[]> {
  const resolved = await resolveBuildActions(actions, context.resolveBuild);
  const plan = resolved.map((action, index) => planAction(action, index, context));
  const results: ActionResult[] = [];
  for (const [index, call] of plan.entries()) {
    const action = resolved[index] as WalletRpcAction;
    context.onAction?.(action, index);
    const value: unknown = await call();
    if (typeof value !== 'string' || value === '') {
      throw new ActionExecutionError('empty_result', `action ${index} returned no value`, {
        actionIndex: index,
        chainId: action.walletRpc.chainId,
        method: action.walletRpc.method,
      });
    }
    results.push({ type: 'walletRpc', data: [value] });
    // A transaction that later actions build on (an approval before the permit it allows) is
    // waited for until mined: a node estimating the service's submission against the latest
    // block would otherwise see no allowance yet.
    if (action.walletRpc.method === 'eth_sendTransaction' && index < plan.length - 1 && context.evm?.waitForReceipt) {
      try {
        await context.evm.waitForReceipt(action.walletRpc.chainId, value);
      } catch (err) {
        throw new ActionExecutionError('transaction_failed', `action ${index}: ${(err as Error).message}`, {
          actionIndex: index,
          chainId: action.walletRpc.chainId,
          method: action.walletRpc.method,
        });
      }
    }
  }
  return results;
}
