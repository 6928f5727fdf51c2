import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One process at a time on an embedded (PGlite) data directory. PGlite has no postmaster.pid of
 * its own: a second process (the key tool while the service runs) opened the same files, wrote,
 * exited 0, and its writes were never seen by the first process and lost at its next checkpoint.
 * So the storage factory takes this lock before PGlite opens the directory: a file inside it
 * holding the holder's pid, created exclusively, released on close and on exit. A holder that
 * died without releasing it (SIGKILL, power loss) is detected by its pid no longer running.
 */
export const LOCK_FILE = 'service.lock';

/** The data directory is held by another live process, or already open in this one. */
export class EmbeddedDatabaseInUse extends Error {
  readonly dataDir: string;
  readonly holderPid: number;
  constructor(dataDir: string, holderPid: number) {
    super(
      holderPid === process.pid
        ? `The embedded database in ${dataDir} is already open in this process; it can be opened once at a time.`
        : `The embedded database in ${dataDir} is in use by process ${holderPid} (the service, or another tool). ` +
            'Nothing was written. Stop that process and run this again, or set DATABASE_URL to a PostgreSQL server, ' +
            'which the service and the tools can use at the same time.',
    );
    this.name = 'EmbeddedDatabaseInUse';
    this.dataDir = dataDir;
    this.holderPid = holderPid;
  }
}

export interface DataDirLock {
  release(): void;
}

/** Whether a pid is a running process: signal 0 checks without sending; EPERM is someone else's live process. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Written to a file of our own first and then hard-linked into place: the link is atomic and
 * fails if the lock exists, and the lock is never seen without its pid.
 */
function createExclusive(path: string): boolean {
  const mine = `${path}.${process.pid}-${Date.now()}`;
  writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(mine, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(mine);
  }
}

/**
 * Moves a dead holder's lock aside. Renamed rather than deleted, and read back afterwards: if
 * two processes race to clear the same stale lock, the slower one may have moved the faster
 * one's fresh lock; it then sees a live pid in what it moved, puts it back and gives way.
 */
function clearStale(path: string, stalePid: number | undefined, dataDir: string): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // Someone else cleared it first.
    throw err;
  }
  const moved = readPid(aside);
  if (moved !== stalePid && moved !== undefined && isAlive(moved)) {
    renameSync(aside, path);
    throw new EmbeddedDatabaseInUse(dataDir, moved);
  }
  unlinkSync(aside);
}

/** Takes the lock on `dataDir` (created if missing) or throws EmbeddedDatabaseInUse naming the holder. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(path)) {
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.off('exit', release);
        // Only our own lock: never remove one a later holder took after ours was cleared.
        if (readPid(path) === process.pid) unlinkSync(path);
      };
      // A normal exit that skipped close() must not leave the next start to the liveness check.
      process.on('exit', release);
      return { release };
    }
    const holder = readPid(path);
    if (holder !== undefined && (holder === process.pid || isAlive(holder))) throw new EmbeddedDatabaseInUse(dataDir, holder);
    clearStale(path, holder, dataDir);
  }
  throw new Error(`storage: could not take the lock ${path}; remove it if no process uses ${dataDir}`);
}
