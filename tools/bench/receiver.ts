/**
 * The benches' webhook receiver: answers every POST 200 at once (keep-alive, as a real receiver
 * behind a balancer would) and notes when each delivery arrived, with the event's own time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  /** Date.now() when the body had arrived. */
  at: number;
  path: string;
  webhookId: string;
  type: string;
  /** The event's `created_at`, ms. */
  eventAt: number;
  /** `data.id` of a payment event. */
  paymentId: string | null;
}

export async function startBenchReceiver(opts: { onArrival?: (a: Arrival) => void } = {}) {
  const arrivals: Arrival[] = [];
  const distinct = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      const at = Date.now();
      let body: { type?: string; created_at?: string; data?: { id?: string } } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // counted, without its event's fields
      }
      const a: Arrival = {
        at,
        path: req.url ?? '/',
        webhookId: String(req.headers['webhook-id']),
        type: body.type ?? '',
        eventAt: body.created_at ? Date.parse(body.created_at) : NaN,
        paymentId: body.data?.id ?? null,
      };
      arrivals.push(a);
      distinct.add(`${a.path} ${a.webhookId}`);
      opts.onArrival?.(a);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    arrivals,
    /** Distinct (path, webhook-id) pairs: deliveries, not retries of one. */
    distinct: () => distinct.size,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The value of one sample of a Prometheus text exposition (the first line matching name and labels), or null. */
export function metricValue(text: string, name: string, labels = ''): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (labels ? rest.startsWith(`{${labels}`) : rest.startsWith(' ')) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

/** The p-th percentile of unsorted values (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
