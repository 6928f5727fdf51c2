import { describe, expect, it } from 'vitest';
import type { AddressPolicyPort } from '../../ports/http-fetch.ts';
import { endpointUrlProblem, type EndpointUrlPolicy } from './url-policy.ts';

/** An address policy that knows only what the test says: no network, no interfaces read. */
const addresses: AddressPolicyPort = {
  isPublic: (a) => a.startsWith('93.'),
  isOwnHostAddress: (a) => a === '127.0.0.1' || a === '10.9.9.9',
};
const lookup = (table: Record<string, string[]>) => async (host: string) => (table[host] ?? []).map((address) => ({ address }));
const policy = (over: Partial<EndpointUrlPolicy> = {}): EndpointUrlPolicy => ({
  allowLoopback: false,
  lookup: lookup({ 'hooks.example': ['93.1.1.1'], 'mixed.example': ['93.1.1.1', '10.0.0.1'], 'self.example': ['10.9.9.9'] }),
  addresses,
  ...over,
});

describe('endpointUrlProblem with the injected address policy and resolver', () => {
  it('accepts an https host whose every address the policy calls public', async () => {
    expect(await endpointUrlProblem('https://hooks.example/in', policy())).toBeNull();
  });

  it('refuses a host with any non-public address, an unresolvable host, and plain http', async () => {
    expect(await endpointUrlProblem('https://mixed.example/in', policy())).toBe('the URL must point at a public address');
    expect(await endpointUrlProblem('https://nowhere.example/in', policy())).toBe('the host nowhere.example does not resolve');
    expect(await endpointUrlProblem('http://hooks.example/in', policy())).toBe('the URL must be https://');
  });

  it('refuses this service’s own port on an address the policy calls this host’s, in any mode', async () => {
    expect(await endpointUrlProblem('https://self.example:8443/in', policy({ ownPort: 8443 }))).toBe('the URL must not point at this service itself');
    expect(await endpointUrlProblem('http://127.0.0.1:8443/in', policy({ ownPort: 8443, allowLoopback: true }))).toBe('the URL must not point at this service itself');
    expect(await endpointUrlProblem('http://127.0.0.1:9000/in', policy({ ownPort: 8443, allowLoopback: true }))).toBeNull();
  });
});
