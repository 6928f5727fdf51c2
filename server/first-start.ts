import type { StoragePort } from './ports/storage/index.ts';
import { createKey, createPartner } from './auth/provisioning.ts';
import { DEFAULT_API_VERSION } from './http/versions.ts';
import { createUser, OPERATOR, temporaryPassword } from './domain/users/manage-users.ts';

/** The sandbox's first dashboard owner: a fixed, obviously local address, so the README can name it. */
export const FIRST_OWNER_EMAIL = 'owner@sandbox.test';

/**
 * What the first start on an empty database does. The sandbox creates a partner and prints its
 * keys and a dashboard owner's sign-in (a random password, stored only as its hash), so `npm start`
 * is enough to try the API and the dashboard. Production creates nothing: a key printed
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
        'Create the first partner, its live key and a dashboard owner with the key tool, on the same storage (DATABASE_URL, or DATA_DIR while this server is stopped):',
        '  npm run keys -- create-partner --name "<partner name>"',
        '  npm run keys -- create-key --partner <partner id> --scope wallet',
        '  read -rs PW && printf %s "$PW" | npm run keys -- create-user --partner <partner id> --email <email> --role owner --password-stdin',
        '',
      ].join('\n'),
    );
    return;
  }
  const { partner, apiKey } = await createPartner(storage, { name: 'First partner', version: DEFAULT_API_VERSION, live: false });
  const wallet = await createKey(storage, { partnerId: partner.id, scope: 'wallet', live: false });
  const password = temporaryPassword();
  const owner = await createUser(storage, {
    partnerId: partner.id,
    email: FIRST_OWNER_EMAIL,
    role: 'owner',
    password,
    actor: { ...OPERATOR, display: 'first sandbox start' },
  });
  // Only a leftover user of a wiped partner table could collide; the keys are still worth printing.
  const signIn = owner.ok
    ? [`  dashboard:    ${config.publicBaseUrl}/dashboard`, `    email:      ${FIRST_OWNER_EMAIL}`, `    password:   ${password}`]
    : [`  dashboard:    no owner created (${owner.problem}); create one with: ./npmw run keys -- create-user`];
  print(
    [
      '',
      'Empty database: created a first partner and its dashboard owner. These keys and the password are shown once; store them now.',
      `  partner id:   ${partner.id}`,
      `  partner key:  ${apiKey}`,
      `  wallet key:   ${wallet.apiKey}`,
      ...signIn,
      `  sandbox:      ${config.publicBaseUrl}/sandbox (chains, assets, faucet)`,
      '',
    ].join('\n'),
  );
}
