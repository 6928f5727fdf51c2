import { fromWireAction, isRecord, type WalletRpcAction } from './actions.ts';
import { GatewayProtocolError } from './errors.ts';
import type { CancelResult, CollectData, PaymentOption, PaymentOptions, PaymentStatusResult, PaymentSummary } from './types.ts';

/*
 * Readers check the fields the SDK relies on and pass the rest through, so a newer service
 * adding fields does not break older wallets, while a broken answer fails loudly here rather
 * than as an undefined deep inside signing code.
 */

export function readOptions(body: unknown): PaymentOptions {
  const record = requireRecord(body, 'options response');
  const list = record.options ?? [];
  if (!Array.isArray(list)) throw new GatewayProtocolError('options must be an array');
  return {
    options: list.map(readOption),
    info: record.info == null ? null : readSummary(record.info),
    collectData: readCollectData(record.collectData),
  };
}

function readOption(value: unknown): PaymentOption {
  const record = requireRecord(value, 'option');
  if (typeof record.id !== 'string' || typeof record.account !== 'string' || !Array.isArray(record.actions)) {
    throw new GatewayProtocolError('option needs id, account and actions');
  }
  return {
    ...(record as unknown as PaymentOption),
    actions: record.actions.map(fromWireAction),
    collectData: readCollectData(record.collectData),
  };
}

function readCollectData(value: unknown): CollectData | null {
  if (value == null) return null;
  const record = requireRecord(value, 'collectData');
  if (typeof record.url !== 'string') throw new GatewayProtocolError('collectData needs a url');
  const fields = record.fields ?? [];
  if (
    !Array.isArray(fields) ||
    !fields.every((f) => isRecord(f) && typeof f.id === 'string' && typeof f.name === 'string' && typeof f.required === 'boolean' && typeof f.type === 'string')
  ) {
    throw new GatewayProtocolError('collectData.fields must be a list of {id, name, required, type}');
  }
  return { ...record, url: record.url, schema: record.schema, fields: fields as CollectData['fields'] };
}

export function readSummary(body: unknown): PaymentSummary {
  const record = requireRecord(body, 'payment');
  if (typeof record.status !== 'string' || !isRecord(record.amount)) {
    throw new GatewayProtocolError('payment needs status and amount');
  }
  return record as unknown as PaymentSummary;
}

/** Fetch answers must contain only wallet RPC actions: a build cannot resolve to a build. */
export function readFetchedActions(body: unknown): WalletRpcAction[] {
  const record = requireRecord(body, 'fetch response');
  if (!Array.isArray(record.actions)) throw new GatewayProtocolError('fetch response needs actions');
  return record.actions.map((wire) => {
    const action = fromWireAction(wire);
    if (action.type !== 'walletRpc') throw new GatewayProtocolError('fetch returned a non-walletRpc action');
    return action;
  });
}

export function readStatus(body: unknown): PaymentStatusResult {
  const record = requireRecord(body, 'status');
  if (typeof record.status !== 'string' || typeof record.isFinal !== 'boolean') {
    throw new GatewayProtocolError('status needs status and isFinal');
  }
  return record as unknown as PaymentStatusResult;
}

export function readCancel(body: unknown): CancelResult {
  const record = requireRecord(body, 'cancel response');
  if (typeof record.status !== 'string') throw new GatewayProtocolError('cancel response needs status');
  return record as unknown as CancelResult;
}

function requireRecord(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new GatewayProtocolError(`${what} is not a JSON object`);
  return value;
}
