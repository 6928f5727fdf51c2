import type { Logger } from 'pino';
import type { RelayerEvent } from '../../adapters/chains/evm/relayer-submit.ts';
import { METRICS } from '../ports/metric-catalog.ts';
import type { MetricsPort } from '../ports/metrics.ts';

/**
 * A node refusing a relayer transaction, for operators: every refusal counted by class; a relayer
 * out of funds logged as an error (payments on that chain stop being offered gasless until it is
 * topped up, and /readyz shows the account low); the others at warn or debug by how unusual they are.
 */
export function relayerRefusalAlerts(logger: Logger, metrics: MetricsPort): (event: RelayerEvent) => void {
  return ({ chain, relayer, refusal }) => {
    metrics.count(METRICS.broadcastRefusals, { chain, class: refusal.class });
    const fields = { chain, relayer, class: refusal.class, node: refusal.message };
    if (refusal.class === 'insufficient-funds') logger.error(fields, 'relayer cannot pay for gas: gasless payments on this chain are paused until it is topped up');
    else if (refusal.class === 'known' || refusal.class === 'nonce-used') logger.debug(fields, 'relayer broadcast refused; following the chain');
    else logger.warn(fields, 'relayer broadcast refused; answered by its class');
  };
}
