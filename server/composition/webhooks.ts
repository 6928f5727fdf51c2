import { lookup as dnsLookup } from 'node:dns/promises';
import { createGuardedFetch, isOwnHostAddress, isPublicAddress } from '../../adapters/http-fetch/index.ts';
import type { AddressPolicyPort, GuardedFetchFactory, HostLookup } from '../ports/http-fetch.ts';
import { createWebhookFetch } from '../domain/webhooks/fetcher.ts';
import type { WebhookJobOptions } from '../domain/webhooks/job.ts';
import type { EndpointUrlPolicy } from '../domain/webhooks/url-policy.ts';

/** The SSRF-guarded fetch adapter, as the factory the domain asks for. */
export const guardedFetchFactory: GuardedFetchFactory = (settings) => createGuardedFetch(settings);

/** The guard's address classification, for checks made before any fetch. */
export const addressPolicy: AddressPolicyPort = { isPublic: isPublicAddress, isOwnHostAddress };

/** The system resolver, every address of the name. */
export const systemHostLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

/** One process's webhook settings: what registration checks and what delivery uses, from one source. */
export interface WebhookSettings {
  /** Checked when a partner registers or changes an endpoint URL. */
  endpoints: EndpointUrlPolicy;
  /** The `webhook.deliver` job's fetch and allowances. */
  delivery: WebhookJobOptions;
}

export interface WebhookSettingsInput {
  /** Sandbox mode only: loopback receivers, plain http allowed. */
  allowLoopback: boolean;
  /** The API's port: never a receiver, on any address of this host. */
  ownPort?: number;
  /** Tests: DNS without the network. */
  lookup?: HostLookup;
  /** Tests: shorter timeouts and retry schedule, a smaller per-endpoint cap. */
  delivery?: Partial<Omit<WebhookJobOptions, 'fetch' | 'allowLoopbackEndpoints' | 'ownPort'>>;
}

/**
 * The webhook settings of a process, built once so the API and the worker cannot differ: the same
 * loopback allowance and own port guard registration and every delivery attempt.
 */
export function webhookSettings(input: WebhookSettingsInput): WebhookSettings {
  const own = input.ownPort !== undefined ? { ownPort: input.ownPort } : {};
  return {
    endpoints: { allowLoopback: input.allowLoopback, ...own, lookup: input.lookup ?? systemHostLookup, addresses: addressPolicy },
    delivery: {
      ...input.delivery,
      fetch: createWebhookFetch(guardedFetchFactory, { allowLoopback: input.allowLoopback, ...own }),
      allowLoopbackEndpoints: input.allowLoopback,
      ...own,
    },
  };
}
