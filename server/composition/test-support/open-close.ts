/**
 * Opens the runtime for the role named in argv[2] from this process's environment, prints what it
 * built as one JSON line, closes it, and returns without calling process.exit: the process ends
 * by itself only if close() released every handle the runtime opened.
 */
import { pino } from 'pino';
import { loadConfig } from '../../config.ts';
import { openRuntime } from '../runtime.ts';

const role = process.argv[2] === 'worker' ? 'worker' : 'api';
const runtime = await openRuntime(loadConfig(), { role, logger: pino({ level: 'silent' }), print: () => {} });
const { endpoints, delivery } = runtime.webhookSettings;
console.log(
  JSON.stringify({
    role,
    jobTypes: Object.keys(runtime.jobHandlers).sort(),
    webhooks: { allowLoopback: endpoints.allowLoopback, ownPort: endpoints.ownPort, deliveryLoopback: delivery.allowLoopbackEndpoints, deliveryOwnPort: delivery.ownPort },
  }),
);
await runtime.close();
