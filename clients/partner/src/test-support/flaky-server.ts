// Test-only: a local HTTP server that answers from a script (status, body, or a dropped connection),
// recording every request, to prove the client's retry rules without touching the real service.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FlakyServer {
  url: string;
  received: Received[];
  /** Answers to give, in order; the last one repeats. */
  script(...answers: Scripted[]): void;
  close(): Promise<void>;
}

/** Starts the scripted server on a random local port. */
export async function startFlakyServer(): Promise<FlakyServer> {
  let answers: Scripted[] = [{ status: 200, body: {} }];
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      const isText = typeof answer.body === 'string';
      res.writeHead(answer.status, { 'Content-Type': isText ? 'text/html' : 'application/json', ...answer.headers });
      res.end(isText ? answer.body : JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    script(...next) {
      answers = next;
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
