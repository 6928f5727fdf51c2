/**
 * The key tool: creates partners and keys on the same storage as the server (DATABASE_URL, or
 * the embedded data directory while the server is stopped). A key is printed once, here.
 *
 *   npm run keys -- create-partner --name <name> [--version <v>] [--icon-url <https url>] [--json]
 *   (a wallet team's name and icon are shown as the wallet app on the payments its keys confirm)
 *   npm run keys -- create-key --partner <id> --scope partner|wallet|app [--json]
 *   (app: a public App-Id for wallets, sent with any Client-Id)
 *   npm run keys -- revoke <keyId> [--json]
 *   npm run keys -- list --partner <id> [--json]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/config.ts';
import { openConfiguredStorage } from '../../server/composition/storage.ts';
import { createKey, createPartner } from '../../server/auth/provisioning.ts';
import { API_VERSIONS, DEFAULT_API_VERSION, isApiVersion } from '../../server/http/versions.ts';

const USAGE = `usage:
  npm run keys -- create-partner --name <name> [--version <${API_VERSIONS.join('|')}>] [--icon-url <https url>] [--json]
  npm run keys -- create-key --partner <partnerId> --scope partner|wallet|app [--json]
  npm run keys -- revoke <keyId> [--json]
  npm run keys -- list --partner <partnerId> [--json]`;

class UsageError extends Error {}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      version: { type: 'string' },
      'icon-url': { type: 'string' },
      partner: { type: 'string' },
      scope: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) throw new UsageError(USAGE);
  const out = (json: unknown, human: string) => console.log(values.json ? JSON.stringify(json) : human);

  const config = loadConfig();
  const storage = await openConfiguredStorage(config);
  const live = config.mode === 'production';
  try {
    switch (command) {
      case 'create-partner': {
        if (!values.name) throw new UsageError('create-partner needs --name');
        const version = values.version ?? DEFAULT_API_VERSION;
        if (!isApiVersion(version)) throw new UsageError(`--version must be one of ${API_VERSIONS.join(', ')}`);
        const iconUrl = values['icon-url'];
        if (iconUrl !== undefined && !/^https:\/\/[^\s]{1,2040}$/.test(iconUrl)) throw new UsageError('--icon-url must be an https:// URL');
        const { partner, apiKey, keyId } = await createPartner(storage, { name: values.name, version, live, ...(iconUrl ? { iconUrl } : {}) });
        out({ partnerId: partner.id, apiKey, keyId }, `Created partner ${partner.id} (${partner.name}), pinned to ${version}.\nPartner key (shown once, store it now): ${apiKey}`);
        return;
      }
      case 'create-key': {
        if (!values.partner) throw new UsageError('create-key needs --partner');
        if (values.scope !== 'partner' && values.scope !== 'wallet' && values.scope !== 'app') throw new UsageError('create-key needs --scope partner, wallet or app');
        if (!(await storage.partners.get(values.partner))) throw new UsageError(`no partner ${values.partner}`);
        const { record, apiKey } = await createKey(storage, { partnerId: values.partner, scope: values.scope, live });
        out({ keyId: record.id, apiKey }, `Created ${record.scope} key ${record.id}.\nKey (shown once, store it now): ${apiKey}`);
        return;
      }
      case 'revoke': {
        const keyId = rest[0];
        if (!keyId) throw new UsageError('revoke needs a key id');
        const revoked = await storage.apiKeys.revoke(keyId, new Date());
        if (!revoked) throw new UsageError(`no active key ${keyId}`);
        out({ keyId, revoked: true }, `Revoked ${keyId}. Servers stop accepting it within a second.`);
        return;
      }
      case 'list': {
        if (!values.partner) throw new UsageError('list needs --partner');
        const keys = await storage.apiKeys.listByPartner(values.partner);
        out(
          keys.map((k) => ({ keyId: k.id, scope: k.scope, hint: k.hint, createdAt: k.createdAt.toISOString(), revokedAt: k.revokedAt?.toISOString() ?? null })),
          keys.length
            ? keys
                .map((k) => `${k.id}  ${k.scope.padEnd(7)}  …${k.hint}  created ${k.createdAt.toISOString()}${k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : ''}`)
                .join('\n')
            : `no keys for ${values.partner}`,
        );
        return;
      }
      default:
        throw new UsageError(`unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await storage.close();
  }
}

run(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
