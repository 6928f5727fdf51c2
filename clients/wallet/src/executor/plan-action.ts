import type { WalletRpcAction } from '../gateway/actions.ts';
import type { EvmTransactionRequest, WalletSigners } from '../signers/types.ts';
import { ActionExecutionError } from './errors.ts';

/** A validated action, ready to run against its signer. */
export type PlannedCall = () => Promise<string>;

const EVM_METHODS = new Set(['eth_signTypedData_v4', 'personal_sign', 'eth_sendTransaction']);
const SOLANA_METHODS = new Set(['solana_signTransaction']);
/** The service broadcasts Solana transactions itself; a wallet that broadcast too would race it. */
const REFUSED_METHODS = new Set(['solana_signAndSendTransaction']);

/**
 * Validates one wallet RPC action (namespace, method, signer, params) and returns the call
 * that will execute it. Validation is separate from execution so a whole option can be
 * checked before anything is signed or broadcast.
 */
export function planAction(action: WalletRpcAction, actionIndex: number, signers: WalletSigners): PlannedCall {
  const { chainId, method } = action.walletRpc;
  const where = { actionIndex, chainId, method };
  const fail = (code: ConstructorParameters<typeof ActionExecutionError>[0], message: string): never => {
    throw new ActionExecutionError(code, `action ${actionIndex} (${method} on ${chainId}): ${message}`, where);
  };
  const separator = chainId.indexOf(':');
  const namespace = separator > 0 && separator < chainId.length - 1 ? chainId.slice(0, separator) : '';
  if (namespace !== 'eip155' && namespace !== 'solana') fail('unsupported_namespace', `namespace "${namespace}" is not supported`);
  if (REFUSED_METHODS.has(method)) fail('refused_method', 'the wallet signs only; the service broadcasts');
  const known = namespace === 'eip155' ? EVM_METHODS : SOLANA_METHODS;
  if (!known.has(method)) fail('unknown_method', `unknown method for ${namespace}`);
  const params = parseParams(action.walletRpc.params, fail);

  if (namespace === 'solana') {
    const signer = signers.solana ?? fail('missing_signer', 'no Solana signer is configured');
    const transaction = solanaTransaction(params, fail);
    return () => signer.signTransaction(transaction, chainId);
  }
  const signer = signers.evm ?? fail('missing_signer', 'no EVM signer is configured');
  if (method === 'eth_signTypedData_v4') {
    const [address, typedData] = params;
    if (typeof address !== 'string' || (typeof typedData !== 'string' && !isObject(typedData))) {
      fail('invalid_params', 'expected [address, typedData]');
    }
    const json = typeof typedData === 'string' ? typedData : JSON.stringify(typedData);
    return () => signer.signTypedData(address as string, json);
  }
  if (method === 'personal_sign') {
    const [message, address] = params;
    if (typeof message !== 'string' || typeof address !== 'string') fail('invalid_params', 'expected [message, address]');
    return () => signer.personalSign(address as string, message as string);
  }
  const [tx] = params;
  if (!isObject(tx)) fail('invalid_params', 'expected [transaction]');
  return () => signer.sendTransaction(chainId, tx as EvmTransactionRequest);
}

function parseParams(json: string, fail: (code: 'invalid_params', message: string) => never): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fail('invalid_params', 'params are not valid JSON');
  }
  return Array.isArray(value) ? value : fail('invalid_params', 'params must be a JSON array');
}

/** Solana params are `[ { transaction: <base64> } ]`. */
function solanaTransaction(params: unknown[], fail: (code: 'invalid_params', message: string) => never): string {
  const [first] = params;
  if (params.length !== 1 || !isObject(first) || typeof first.transaction !== 'string' || first.transaction === '') {
    return fail('invalid_params', 'expected [{ transaction: <base64> }]');
  }
  return first.transaction;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
