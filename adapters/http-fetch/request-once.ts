/**
 * One HTTP exchange to an already-checked address: no redirects, no DNS. Enforces the connect
 * timeout, the body size limit (stops reading and closes the socket past it) and an external abort
 * (the caller's overall deadline), and maps socket/TLS/parser errors to typed {@link HttpFetchError}s.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { HttpFetchError } from '../../server/ports/http-fetch.ts';
import type { ResolvedAddress } from './resolve-destination.ts';
import { bareHostname } from './resolve-destination.ts';

export type HopRequest = {
  url: URL;
  to: ResolvedAddress;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | string | undefined;
  maxBytes: number;
  connectTimeoutMs: number;
  /** Aborted by the caller's deadline; its `reason` (an HttpFetchError) becomes the rejection. */
  signal: AbortSignal;
  /** Trust anchors for https, or undefined for Node's defaults. */
  ca: Array<string | Buffer> | undefined;
  /** Keep-alive agent for exactly this checked (protocol, address, port, servername); see connection-pool.ts. */
  agent: http.Agent;
  /** Decides from status and headers whether the body is wanted (not for a redirect to follow). */
  wantsBody: (status: number, headers: Record<string, string>) => boolean;
};

export type HopResponse = { status: number; headers: Record<string, string>; body: Uint8Array };

const TLS_CODES = /CERT|SSL|TLS|SIGNATURE|ISSUER|UNABLE_TO_(GET|VERIFY)/;

function toFetchError(err: unknown, url: URL): HttpFetchError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const detail = err instanceof Error ? err.message : String(err);
  const fail = (message: string): HttpFetchError => new HttpFetchError('unreachable', message, url.href, { cause: err });
  if (code === 'ECONNREFUSED') return fail(`the connection to ${url.host} was refused`);
  if (code === 'ECONNRESET' || code === 'EPIPE') return fail(`the connection to ${url.host} was closed unexpectedly`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return fail(`there is no route to ${url.host}`);
  if (code === 'ETIMEDOUT') return new HttpFetchError('timeout', `connecting to ${url.host} timed out`, url.href, { cause: err });
  if (code.startsWith('HPE_')) return fail(`${url.host} did not answer with a valid HTTP response`);
  if (TLS_CODES.test(code)) return fail(`the TLS certificate of ${url.host} could not be verified (${detail})`);
  return fail(`${url.host} could not be reached (${detail})`);
}

function flattenHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Performs the exchange; resolves with any status, rejects only with HttpFetchError. */
export function requestOnce(hop: HopRequest): Promise<HopResponse> {
  const { url, to } = hop;
  const isHttps = url.protocol === 'https:';
  // Hands the socket the address we checked instead of letting it resolve the name again.
  const pinnedLookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: to.address, family: to.family }]);
    else callback(null, to.address, to.family);
  };

  return new Promise<HopResponse>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      if (connectTimer) clearTimeout(connectTimer);
      hop.signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (err: HttpFetchError): void =>
      finish(() => {
        req.destroy(); // destroys the socket too: a failed exchange never goes back to the pool
        reject(err);
      });
    const onAbort = (): void => {
      const reason: unknown = hop.signal.reason;
      fail(reason instanceof HttpFetchError ? reason : new HttpFetchError('timeout', 'the request was aborted', url.href));
    };

    const req = (isHttps ? https : http).request({
      protocol: url.protocol,
      hostname: bareHostname(url), // SNI, certificate check and Host stay the name
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers: { ...hop.headers, host: url.host },
      // A new socket connects to the checked address; a reused one is already connected to it (the agent is keyed by it).
      lookup: pinnedLookup,
      agent: hop.agent,
      ...(isHttps && hop.ca ? { ca: hop.ca } : {}),
    });
    // Started when a new socket is assigned (a request may wait for a slot under maxSockets, bounded
    // by the overall deadline); a reused keep-alive socket is connected already.
    let connectTimer: NodeJS.Timeout | undefined;
    if (hop.signal.aborted) return onAbort();
    hop.signal.addEventListener('abort', onAbort, { once: true });

    req.on('socket', (socket) => {
      if (req.reusedSocket || settled) return;
      connectTimer = setTimeout(() => {
        fail(new HttpFetchError('timeout', `connecting to ${url.host} took longer than ${hop.connectTimeoutMs} ms`, url.href));
      }, hop.connectTimeoutMs);
      socket.once(isHttps ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.on('error', (err) => fail(toFetchError(err, url)));
    req.on('response', (res) => {
      if (connectTimer) clearTimeout(connectTimer);
      const status = res.statusCode ?? 0;
      const headers = flattenHeaders(res.headers);
      if (!hop.wantsBody(status, headers))
        return finish(() => {
          res.destroy();
          resolve({ status, headers, body: new Uint8Array(0) });
        });
      const tooLarge = (): HttpFetchError => new HttpFetchError('too_large', `the response is larger than ${hop.maxBytes} bytes`, url.href);
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > hop.maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > hop.maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      res.on('end', () => finish(() => resolve({ status, headers, body: new Uint8Array(Buffer.concat(chunks)) })));
      res.on('error', (err) => fail(toFetchError(err, url)));
      res.on('close', () => {
        if (!res.complete) fail(new HttpFetchError('unreachable', `${url.host} closed the connection before the body was complete`, url.href));
      });
    });
    req.end(hop.body);
  });
}
