import { migrationStatus } from '../../adapters/storage/postgres/migrate.ts';
import { createPgDb } from '../../adapters/storage/postgres/sql-db.ts';
import { dataDirHolder } from '../../adapters/storage/postgres/data-dir-lock.ts';
import type { AppConfig } from '../../server/config.ts';
import { bounded, messageOf } from './bounded.ts';
import type { CheckResult } from './report.ts';

/** `host:port/database`: what the operator needs to recognise, without the user or password. */
function where(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

/**
 * Reachable, and every migration of this version applied. The service applies them itself at
 * start, so a pending one is a database no API has opened yet (or one it failed to migrate); a
 * recorded one this version does not know means a newer version ran against it.
 */
export async function checkDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>, timeoutMs: number): Promise<CheckResult> {
  const name = 'database';
  if (!config.databaseUrl) {
    // Said here because the key tool refuses a held directory: who holds it is what the operator needs.
    const holder = dataDirHolder(config.dataDir);
    const held = holder === null ? 'no process holds it now' : `held now by process ${holder}, so the key tool refuses it until that process stops`;
    return {
      verdict: 'WARN',
      name,
      reason: `no DATABASE_URL: embedded PGlite in ${config.dataDir}, not opened here (one process at a time; the service migrates it at start); ${held}`,
    };
  }
  const db = createPgDb({ url: config.databaseUrl, max: 1 });
  try {
    const status = await bounded(async () => {
      await db.query('SELECT 1');
      return migrationStatus(db);
    }, timeoutMs);
    const at = where(config.databaseUrl);
    if (status.unknown.length)
      return { verdict: 'FAIL', name, reason: `${at}: has migrations this version does not know (${status.unknown.join(', ')}): a newer version ran against it` };
    if (status.pending.length) {
      const list = status.pending.length > 3 ? `${status.pending.slice(0, 3).join(', ')}, …` : status.pending.join(', ');
      return { verdict: 'FAIL', name, reason: `${at}: ${status.pending.length} of ${status.files} migrations not applied (${list}); the API applies them at start` };
    }
    return { verdict: 'PASS', name, reason: `${at} reachable, all ${status.files} migrations applied` };
  } catch (err) {
    return { verdict: 'FAIL', name, reason: `${where(config.databaseUrl)} not reachable: ${messageOf(err)}` };
  } finally {
    await db.close().catch(() => {});
  }
}
