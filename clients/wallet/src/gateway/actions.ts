import { GatewayProtocolError } from './errors.ts';

/** A wallet RPC call in the shape wallet code works with: `params` stays a JSON string. */
export interface WalletRpcAction {
  type: 'walletRpc';
  walletRpc: { chainId: string; method: string; params: string };
}

/** An opaque action the service turns into wallet RPC calls through the fetch call. */
export interface BuildAction {
  type: 'build';
  build: { data: string };
}

export type PaymentAction = WalletRpcAction | BuildAction;

/** The gateway's JSON for a wallet RPC action (`chain_id`, `params` as an array). */
export interface WireWalletRpcAction {
  type: 'walletRpc';
  data: { chain_id: string; method: string; params: unknown[] };
}

/** The gateway's JSON for a build action. */
export interface WireBuildAction {
  type: 'build';
  data: { data: string };
}

export type WireAction = WireWalletRpcAction | WireBuildAction;

/** One executed action's outcome, identical on the wire and in wallet code. */
export interface ActionResult {
  type: 'walletRpc';
  data: [string];
}

/**
 * Converts a gateway action into the wallet-code shape. Unknown action types are refused
 * rather than dropped, because a dropped action would misalign the confirm results.
 */
export function fromWireAction(wire: unknown): PaymentAction {
  if (!isRecord(wire) || !isRecord(wire.data)) throw new GatewayProtocolError('action is not an object with data');
  const data = wire.data;
  if (wire.type === 'walletRpc') {
    if (typeof data.chain_id !== 'string' || typeof data.method !== 'string' || !Array.isArray(data.params)) {
      throw new GatewayProtocolError('walletRpc action needs chain_id, method and a params array');
    }
    return { type: 'walletRpc', walletRpc: { chainId: data.chain_id, method: data.method, params: JSON.stringify(data.params) } };
  }
  if (wire.type === 'build') {
    if (typeof data.data !== 'string') throw new GatewayProtocolError('build action needs a data string');
    return { type: 'build', build: { data: data.data } };
  }
  throw new GatewayProtocolError(`unknown action type ${JSON.stringify(wire.type)}`);
}

/** Converts a wallet-code action back to the gateway's JSON (e.g. for fixtures or relays). */
export function toWireAction(action: PaymentAction): WireAction {
  if (action.type === 'build') return { type: 'build', data: { data: action.build.data } };
  const params: unknown = JSON.parse(action.walletRpc.params);
  if (!Array.isArray(params)) throw new TypeError('walletRpc params must be a JSON-encoded array');
  return { type: 'walletRpc', data: { chain_id: action.walletRpc.chainId, method: action.walletRpc.method, params } };
}

/** Narrowing helper shared by the response readers. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
