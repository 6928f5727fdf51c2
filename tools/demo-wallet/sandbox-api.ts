import { DemoWalletError } from './errors.ts';

/** One chain as `GET /sandbox` lists it. */
export interface SandboxChain {
  caip2: string;
  namespace: string;
  name: string;
  /** The EVM JSON-RPC endpoint wallets broadcast on; null for Solana (the service broadcasts). */
  rpcUrl: string | null;
  nativeCoin: { id: string; symbol: string; decimals: number };
  /** EVM: the Permit2 contract's address. */
  permit2Address?: string;
}

export interface SandboxAsset {
  caip19: string;
  chain: string;
  symbol: string;
  name: string;
  decimals: number;
  flows: string[];
}

export interface SandboxInfo {
  chains: SandboxChain[];
  assets: SandboxAsset[];
}

/**
 * The sandbox endpoints (not part of the API contract, so there is no generated client). Why a
 * DemoWalletError for every failure: a service in production mode has no `/sandbox`, and the
 * user should read that, not a stack trace.
 */
export function createSandboxApi(baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, init);
    } catch (error) {
      throw new DemoWalletError(`cannot reach ${base}${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: reported below when the status is an error
    }
    if (!res.ok) {
      const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const hint = res.status === 404 && path === '/sandbox' ? ' (is the service running in sandbox mode?)' : '';
      const issues = Array.isArray(record.issues) ? ` ${JSON.stringify(record.issues)}` : '';
      throw new DemoWalletError(
        `${init.method ?? 'GET'} ${path} answered ${res.status} ${scalarText(record.code, '')}: ${scalarText(record.message, text.slice(0, 200))}${issues}${hint}`,
      );
    }
    return body;
  };
  return {
    async info(): Promise<SandboxInfo> {
      const body = (await call('/sandbox')) as Partial<SandboxInfo> | null;
      if (!body || !Array.isArray(body.chains) || !Array.isArray(body.assets)) throw new DemoWalletError('GET /sandbox did not list chains and assets');
      return { chains: body.chains, assets: body.assets };
    },
    /** Mints `value` base units of `asset` (null: the native coin) to a CAIP-10 account; answers the new balance. */
    async fund(account: string, asset: string | null, value: bigint): Promise<string> {
      const body = (await call('/sandbox/faucet', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ account, asset, value: value.toString() }),
      })) as { balance?: unknown } | null;
      return scalarText(body?.balance, '?');
    },
  };
}

export type SandboxApi = ReturnType<typeof createSandboxApi>;

/** A string or number from a JSON answer as text; anything else (absent, an object) as `fallback`. */
function scalarText(value: unknown, fallback: string): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}
