/**
 * Test-only local servers on 127.0.0.1: an HTTPS server with a throwaway certificate (generated
 * with openssl at test start and trusted only by fetchers built with its `ca`), a plain HTTP server
 * sharing the same routes, and a "silent" TCP server that accepts and never answers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LookupFn } from '../resolve-destination.ts';

/** The name tests use for the local server; allowed to map to 127.0.0.1 and nothing else. */
export const TEST_HOST = 'logo.test';
export const TEST_ALLOW = [{ hostname: TEST_HOST, address: '127.0.0.1' }] as const;

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export type TestServers = {
  ca: string;
  httpsPort: number;
  httpPort: number;
  /** Requests seen per path (both servers), to prove a refused URL was never requested. */
  hits: Map<string, number>;
  /** TCP connections accepted so far (both servers), to tell a reused keep-alive socket from a new one. */
  connectionsAccepted(): number;
  /** TCP connections currently open (both servers). */
  connectionsOpen(): number;
  route(path: string, handler: Handler): void;
  httpsUrl(path: string, host?: string): string;
  httpUrl(path: string, host?: string): string;
  close(): Promise<void>;
};

/** Self-signed certificate valid for logo.test, localhost, 127.0.0.1 and ::1 (so only the guard can refuse those). */
export function makeTestCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'http-fetch-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${TEST_HOST}`,
        '-addext',
        `subjectAltName=DNS:${TEST_HOST},DNS:localhost,IP:127.0.0.1,IP:::1`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts both servers; unknown paths answer 404. */
export async function startTestServers(): Promise<TestServers> {
  const { key, cert } = makeTestCertificate();
  const routes = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const dispatch: Handler = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404).end('not found');
  };
  const secure = https.createServer({ key, cert }, dispatch);
  const plain = http.createServer(dispatch);
  let accepted = 0;
  const open = new Set<net.Socket>();
  for (const server of [secure, plain]) {
    server.on('connection', (socket: net.Socket) => {
      accepted += 1;
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
  }
  const httpsPort = await listen(secure);
  const httpPort = await listen(plain);
  return {
    ca: cert,
    httpsPort,
    httpPort,
    hits,
    connectionsAccepted: () => accepted,
    connectionsOpen: () => open.size,
    route: (path, handler) => void routes.set(path, handler),
    httpsUrl: (path, host = TEST_HOST) => `https://${host}:${httpsPort}${path}`,
    httpUrl: (path, host = TEST_HOST) => `http://${host}:${httpPort}${path}`,
    async close() {
      secure.closeAllConnections();
      plain.closeAllConnections();
      await Promise.all([closeServer(secure), closeServer(plain)]);
    },
  };
}

export type StreamState = { sent: number; finished: boolean; closedEarly: boolean };

/**
 * Answers 200 with `body` in chunks and no Content-Length, waiting for each chunk to flush plus
 * `pauseMs`, so a client that stops reading early is visible as `closedEarly` with `sent` short.
 */
export function streamPaced(res: http.ServerResponse, body: Uint8Array, contentType: string, chunkBytes = 256 * 1024, pauseMs = 10): StreamState {
  const state: StreamState = { sent: 0, finished: false, closedEarly: false };
  res.on('close', () => void (state.closedEarly = !state.finished));
  res.writeHead(200, { 'content-type': contentType });
  const pump = (): void => {
    if (res.destroyed) return;
    if (state.sent >= body.length) return void res.end(() => void (state.finished = true));
    const chunk = body.subarray(state.sent, state.sent + chunkBytes);
    state.sent += chunk.length;
    res.write(chunk, () => void setTimeout(pump, pauseMs));
  };
  pump();
  return state;
}

/** A TCP server that accepts connections and never sends a byte (a TLS handshake never completes). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => void sockets.add(s));
  const port = await listen(server);
  return {
    port,
    async close() {
      for (const s of sockets) s.destroy();
      await closeServer(server);
    },
  };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await closeServer(server);
  return port;
}

/** DNS stand-in: names map to fixed addresses; any other name fails like ENOTFOUND. Counts calls. */
export function fakeLookup(table: Record<string, string | string[]>): LookupFn & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (hostname: string): Promise<Array<{ address: string; family: number }>> => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (Array.isArray(entry) ? entry : [entry]).map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(fn, { calls });
}
