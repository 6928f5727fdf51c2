import type { StoragePort } from './ports/storage/index.ts';
import { createKey, createPartner } from './auth/provisioning.ts';
import { DEFAULT_API_VERSION } from './http/versions.ts';

/**
 * What the first start on an empty database does. The sandbox creates a partner and prints its
 * keys, so `npm start` is enough to try the service. Production creates nothing: a key printed
 * to a log at boot ends up in log storage, and whoever starts the process is not necessarily who
 * should hold the first live key. It prints how to create one with the key tool instead.
 */
export async function firstStart(storage: StoragePort, config: { mode: 'sandbox' | 'production'; publicBaseUrl: string }, print: (text: string) => void): Promise<void> {
  if ((await storage.partners.count()) > 0) return;
  if (config.mode === 'production') {
    print(
      [
        '',
        'Empty database: no partner yet. Production mode creates no keys by itself.',
        'Create the first partner and its live key with the key tool, on the same storage (DATABASE_URL, or DATA_DIR while this server is stopped):',
        '  npm run keys -- create-partner --name "<partner name>"',
        '  npm run keys -- create-key --partner <partner id> --scope wallet',
        '',
      ].join('\n'),
    );
    return;
  }
  const { partner, apiKey } = await createPartner(storage, { name: 'First partner', version: DEFAULT_API_VERSION, live: false });
  const wallet = await createKey(storage, { partnerId: partner.id, scope: 'wallet', live: false });
  print(
    [
      '',
      'Empty database: created a first partner. These keys are shown once; store them now.',
      `  partner id:   ${partner.id}`,
      `  partner key:  ${apiKey}`,
      `  wallet key:   ${wallet.apiKey}`,
      `  sandbox:      ${config.publicBaseUrl}/sandbox (chains, assets, faucet)`,
      '',
    ].join('\n'),
  );
}
