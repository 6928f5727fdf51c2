import { createServer } from 'node:http';
import { pino } from 'pino';
import { openRuntime } from '../../server/composition/runtime.ts';
import { loadConfig } from '../../server/config.ts';
import { freePort } from './free-port.ts';

/** The sandbox as `npm start` composes it, on a port of its own, with what its first start printed. */
export interface SandboxService {
  base: string;
  /** The first start's partner (`sk_test_…`) and wallet (`wk_…`) keys. */
  partnerKey: string;
  walletKey: string;
  /** CAIP-19 ids of the sandbox's EVM USDC and Solana USDC, as `GET /sandbox` lists them. */
  usdc: string;
  solUsdc: string;
  close(): Promise<void>;
}

/** Starts the composition root's API process on the sandbox chains with its embedded database in `dataDir`. */
export async function startSandboxService(dataDir: string): Promise<SandboxService> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let printed = '';
  const config = loadConfig({ SERVICE_MODE: 'sandbox', DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: base, LOGO_CHECKS: 'off' });
  const runtime = await openRuntime(config, { role: 'api', logger: pino({ level: 'silent' }), print: (text) => void (printed += text) });
  const server = createServer(runtime.api!.app);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const sandbox = (await (await fetch(`${base}/sandbox`)).json()) as { assets: { caip19: string; symbol: string }[] };
  return {
    base,
    partnerKey: /sk_test_[\w-]+/.exec(printed)![0],
    walletKey: /wk_[\w-]+/.exec(printed)![0],
    usdc: sandbox.assets.find((a) => a.symbol === 'USDC' && a.caip19.startsWith('eip155:'))!.caip19,
    solUsdc: sandbox.assets.find((a) => a.caip19.startsWith('solana:'))!.caip19,
    async close() {
      await new Promise((r) => server.close(r));
      await runtime.close();
    },
  };
}
