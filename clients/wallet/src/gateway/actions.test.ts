import { describe, expect, it } from 'vitest';
import { fromWireAction, toWireAction, type WireAction } from './actions.ts';
import { GatewayProtocolError } from './errors.ts';

describe('action converters', () => {
  const wire: WireAction[] = [
    { type: 'walletRpc', data: { chain_id: 'eip155:1', method: 'eth_sendTransaction', params: [{ to: '0x1', data: '0x', value: '0x0' }] } },
    { type: 'build', data: { data: 'abc' } },
  ];

  it('round-trips wire → wallet shape → wire', () => {
    const sdk = wire.map(fromWireAction);
    expect(sdk[0]).toEqual({ type: 'walletRpc', walletRpc: { chainId: 'eip155:1', method: 'eth_sendTransaction', params: '[{"to":"0x1","data":"0x","value":"0x0"}]' } });
    expect(sdk[1]).toEqual({ type: 'build', build: { data: 'abc' } });
    expect(sdk.map(toWireAction)).toEqual(wire);
  });

  it.each([
    ['unknown type', { type: 'magic', data: {} }],
    ['params not an array', { type: 'walletRpc', data: { chain_id: 'eip155:1', method: 'x', params: '[]' } }],
    ['build without data', { type: 'build', data: {} }],
    ['not an object', 'walletRpc'],
  ])('refuses %s instead of dropping it', (_name, value) => {
    expect(() => fromWireAction(value)).toThrow(GatewayProtocolError);
  });

  it('refuses wallet-shape params that are not a JSON array', () => {
    expect(() => toWireAction({ type: 'walletRpc', walletRpc: { chainId: 'eip155:1', method: 'x', params: '{}' } })).toThrow(TypeError);
  });
});
