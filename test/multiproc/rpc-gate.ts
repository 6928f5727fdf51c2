// A JSON-RPC proxy in front of the sandbox EVM that a test can close for one method: requests
// carrying it wait (or are forwarded and their answers wait) until the test opens the gate. It
// stands where a slow or stalled node would, so a job is held mid-way at a known point.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface RpcCall {
  method?: string;
}

export interface RpcGate {
  /** `http://127.0.0.1:<port>/evm`, for EVM_RPC_URLS. */
  url: string;
  /** Hold requests with `method`: before forwarding them (`request`) or after, holding the answer (`answer`). */
  close(method: string, at: 'request' | 'answer'): void;
  /** Lets every held request through, and later ones pass. */
  open(): void;
  /** How many requests with the closed method are waiting at the gate now. */
  held(): number;
  /** How many requests with `method` were forwarded to the node. */
  forwarded(method: string): number;
  stop(): Promise<void>;
}

export async function startRpcGate(target: string): Promise<RpcGate> {
  let gate: { method: string; at: 'request' | 'answer' } | null = null;
  let waiting: Array<() => void> = [];
  const counts = new Map<string, number>();
  const pass = () => (gate ? new Promise<void>((go) => waiting.push(go)) : Promise.resolve());
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString();
        let calls: RpcCall[] = [];
        try {
          const parsed = JSON.parse(body) as RpcCall | RpcCall[];
          calls = Array.isArray(parsed) ? parsed : [parsed];
        } catch {
          // forwarded as it is; the node answers the parse error
        }
        const gated = gate !== null && calls.some((c) => c.method === gate!.method);
        const at = gate?.at;
        if (gated && at === 'request') await pass();
        for (const c of calls) if (c.method) counts.set(c.method, (counts.get(c.method) ?? 0) + 1);
        const answer = await fetch(target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        const text = await answer.text();
        if (gated && at === 'answer') await pass();
        res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/evm`,
    close(method, at) {
      gate = { method, at };
    },
    open() {
      gate = null;
      const go = waiting;
      waiting = [];
      for (const g of go) g();
    },
    held: () => waiting.length,
    forwarded: (method) => counts.get(method) ?? 0,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
