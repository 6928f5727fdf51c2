// The merchant's webhook receiver: checks every delivery's Standard Webhooks signature and
// records event ids (deduplicating on them, as a receiver must: delivery is at least once).
// "Down" means the port refuses connections: the server is closed, then listens again.
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Receiver {
  url: string;
  /** Secret of the endpoint, once registered; deliveries before it are refused (401). */
  setSecret(secret: string): void;
  /** Distinct event ids delivered with a valid signature. */
  ids: Set<string>;
  deliveries(): { total: number; duplicates: number; badSignatures: number };
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(port: number): Promise<Receiver> {
  let verifier: Webhook | null = null;
  const ids = new Set<string>();
  let total = 0;
  let duplicates = 0;
  let badSignatures = 0;
  let server: Server | null = null;
  const listen = async () => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          if (!verifier) throw new Error('no secret yet');
          const event = verifier.verify(body, req.headers as Record<string, string>) as { id: string };
          total++;
          if (ids.has(event.id)) duplicates++;
          ids.add(event.id);
          res.writeHead(204).end();
        } catch {
          badSignatures++;
          res.writeHead(401).end();
        }
      });
    });
    await new Promise<void>((done, fail) => {
      s.once('error', fail);
      s.listen(port, '127.0.0.1', () => done());
    });
    server = s;
  };
  const shut = async () => {
    const s = server;
    if (!s) return;
    server = null;
    s.closeAllConnections();
    await new Promise<void>((done) => s.close(() => done()));
  };
  await listen();
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    setSecret: (secret) => (verifier = new Webhook(secret)),
    ids,
    deliveries: () => ({ total, duplicates, badSignatures }),
    down: shut,
    up: listen,
    close: shut,
  };
}
