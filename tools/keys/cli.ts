/**
 * The key tool: creates partners and keys on the same storage as the server (DATABASE_URL, or
 * the embedded data directory while the server is stopped). A key is printed once, here.
 *
 *   npm run keys -- create-partner --name <name> [--version <v>] [--icon-url <https url>] [--json]
 *   (a wallet team's name and icon are shown as the wallet app on the payments its keys confirm)
 *   npm run keys -- create-key --partner <id> --scope partner|wallet|app [--origin <https://host[:port]>]… [--permission <name>]… [--json]
 *   (app: a public App-Id for wallets, sent with any Client-Id; --origin, repeated, limits the web
 *   origins a browser may use it from; none: any; --permission, repeated, limits a partner key to
 *   those API permissions, the names the dashboard and the API use; none: all)
 *   npm run keys -- revoke <keyId> [--json]
 *   npm run keys -- list --partner <id> [--json]
 *   echo "$PASSWORD" | npm run keys -- create-user --partner <id> --email <email> --role owner|developer|viewer --password-stdin [--json]
 *   (a partner dashboard user; the password is read from standard input, never from the command line,
 *   and is temporary: it ends after TEMPORARY_PASSWORD_HOURS and is replaced at the first sign-in)
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/config.ts';
import { openConfiguredStorage } from '../../server/composition/storage.ts';
import { createKey, createPartner } from '../../server/auth/provisioning.ts';
import { createUser, OPERATOR } from '../../server/domain/users/manage-users.ts';
import { checkOrigins } from '../../server/domain/partners/origins.ts';
import { isKeyPermission, KEY_PERMISSIONS } from '../../server/domain/users/permissions.ts';
import type { KeyPermission } from '../../server/domain/partners/records.ts';
import { API_VERSIONS, DEFAULT_API_VERSION, isApiVersion } from '../../server/http/versions.ts';

const USAGE = `usage:
  npm run keys -- create-partner --name <name> [--version <${API_VERSIONS.join('|')}>] [--icon-url <https url>] [--json]
  npm run keys -- create-key --partner <partnerId> --scope partner|wallet|app [--origin <https://host[:port]>]... [--permission <${KEY_PERMISSIONS.join('|')}>]... [--json]
  npm run keys -- revoke <keyId> [--json]
  npm run keys -- list --partner <partnerId> [--json]
  npm run keys -- create-user --partner <partnerId> --email <email> --role owner|developer|viewer --password-stdin [--json]`;

class UsageError extends Error {}

/**
 * The permissions asked for with --permission (repeated, or comma-separated), in the API's order;
 * undefined when none was asked (an unlimited key, as before). An unknown name is refused with the
 * list of known ones: a typo must not make a key limited to less (or more) than was meant.
 */
function permissionsAsked(asked: string[] | undefined, scope: string): KeyPermission[] | undefined {
  if (!asked?.length) return undefined;
  if (scope !== 'partner') throw new UsageError('--permission is for partner keys only (--scope partner): wallet keys and App-Ids call gateway operations only');
  const names = asked.flatMap((a) => a.split(',')).map((a) => a.trim());
  const unknown = names.find((n) => !isKeyPermission(n));
  if (unknown !== undefined) throw new UsageError(`--permission: unknown permission "${unknown}"; the permissions are ${KEY_PERMISSIONS.join(', ')}`);
  return KEY_PERMISSIONS.filter((p) => names.includes(p));
}

/** Standard input, whole, without its final line break: a password piped in (`echo … |`, a file, a secret manager). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

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
      origin: { type: 'string', multiple: true },
      permission: { type: 'string', multiple: true },
      email: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) throw new UsageError(USAGE);
  const out = (json: unknown, human: string) => console.log(values.json ? JSON.stringify(json) : human);

  // Checked before the store opens, so a usage mistake costs no database connection.
  if (command === 'create-user') {
    if (!values.partner || !values.email || !values.role) throw new UsageError('create-user needs --partner, --email and --role');
    if (!values['password-stdin']) throw new UsageError('create-user needs --password-stdin (the password is read from standard input, never from the command line)');
  }
  const password = command === 'create-user' ? await readStdin() : '';

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
        const origins = checkOrigins(values.origin ?? [], { sandbox: !live });
        if (values.origin?.length && values.scope !== 'app') throw new UsageError('--origin is for App-Ids only (--scope app)');
        if (!origins.ok) throw new UsageError(`--origin: ${origins.problem}`);
        const permissions = permissionsAsked(values.permission, values.scope);
        if (!(await storage.partners.get(values.partner))) throw new UsageError(`no partner ${values.partner}`);
        const { record, apiKey } = await createKey(storage, {
          partnerId: values.partner,
          scope: values.scope,
          live,
          allowedOrigins: origins.origins,
          // Every permission asked is the same as none: an unlimited key, stored as such.
          ...(permissions && permissions.length < KEY_PERMISSIONS.length ? { permissions } : {}),
        });
        const limit = origins.origins.length ? `, allowed from ${origins.origins.join(', ')}` : '';
        const scoped = record.permissions ? `, limited to ${record.permissions.join(', ')}` : '';
        out(
          { keyId: record.id, apiKey, allowedOrigins: origins.origins, permissions: record.permissions ?? null },
          `Created ${record.scope} key ${record.id}${limit}${scoped}.\nKey (shown once, store it now): ${apiKey}`,
        );
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
          keys.map((k) => ({
            keyId: k.id,
            scope: k.scope,
            hint: k.hint,
            createdAt: k.createdAt.toISOString(),
            revokedAt: k.revokedAt?.toISOString() ?? null,
            ...(k.allowedOrigins ? { allowedOrigins: k.allowedOrigins } : {}),
            ...(k.permissions ? { permissions: k.permissions } : {}),
          })),
          keys.length
            ? keys
                .map(
                  (k) =>
                    `${k.id}  ${k.scope.padEnd(7)}  …${k.hint}  created ${k.createdAt.toISOString()}${k.permissions ? `  limited to ${k.permissions.join(',') || 'nothing'}` : ''}${k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : ''}`,
                )
                .join('\n')
            : `no keys for ${values.partner}`,
        );
        return;
      }
      case 'create-user': {
        // The operator chose this password, so it is temporary like an owner's invitation: it ends
        // after TEMPORARY_PASSWORD_HOURS and its user replaces it at the first sign-in.
        const created = await createUser(storage, {
          partnerId: values.partner!,
          email: values.email!,
          role: values.role!,
          password,
          actor: OPERATOR,
          temporaryForMs: config.temporaryPasswordHours * 3_600_000,
        });
        if (!created.ok) throw new UsageError(created.problem);
        const u = created.user;
        const ends = u.passwordExpiresAt!.toISOString();
        out(
          { userId: u.id, partnerId: u.partnerId, email: u.email, role: u.role, temporaryPasswordUntil: ends },
          `Created ${u.role} ${u.email} (${u.id}) for partner ${u.partnerId}: they can sign in at /dashboard until ${ends} with this password, and choose their own at the first sign-in.`,
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
