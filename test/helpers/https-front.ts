// An HTTPS front for a test app: Solana Pay wallets (and @solana/pay's parseURL) accept only
// https links, so a test wallet reaches the service as a phone would, over TLS with a certificate
// this process trusts. The certificate is made by openssl for localhost, once per front.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, globalAgent, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

export interface HttpsFront {
  /** `https://localhost:<port>`: give it to the app as its pay base URL. */
  origin: string;
  /** Points the front at the app once it listens. */
  target(httpUrl: string): void;
  close(): Promise<void>;
}

/** Starts the front (before the app, whose links must name it); trusts its certificate in this process's default HTTPS agent. */
export async function startHttpsFront(): Promise<HttpsFront> {
  const dir = mkdtempSync(join(tmpdir(), 'https-front-'));
  let key: Buffer;
  let cert: Buffer;
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
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    key = readFileSync(join(dir, 'key.pem'));
    cert = readFileSync(join(dir, 'cert.pem'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // node-fetch (under @solana/pay's cross-fetch) uses the default agent: trust this certificate there.
  globalAgent.options.ca = [cert];
  let upstream: URL | null = null;
  const server: Server = createServer({ key, cert }, (req, res) => {
    if (!upstream) return void res.writeHead(503).end();
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    origin: `https://localhost:${(server.address() as AddressInfo).port}`,
    target: (httpUrl) => void (upstream = new URL(httpUrl)),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
