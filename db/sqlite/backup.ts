// An online, consistent copy of the SQLite store while the service runs: VACUUM INTO reads the whole file in one
// read transaction (a snapshot: every scan committed before it started, none half), never blocks the service's
// writes (WAL), and writes a compact file with the WAL folded in. Copying store.db with cp is not a backup: the
// newest data lives in store.db-wal until a checkpoint.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, openSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface BackupSummary {
  file: string;
  bytes: number;
  scans: number;
  schemaVersion: number;
}

export class BackupError extends Error {}

export function backupSqlite(source: string, target: string): BackupSummary {
  refuseExisting(target);
  if (!exists(source)) throw new BackupError(`${source} does not exist: is DATA_DIR the service's?`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    vacuumIntoNewFile(db, target, (copy) => {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`the copy of ${source} failed its check (${String(check)}); nothing was written to ${target}`);
    });
  } finally {
    db.close();
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const scans = (copy.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n;
    return { file: target, bytes: statSync(target).size, scans, schemaVersion: copy.pragma('user_version', { simple: true }) as number };
  } finally {
    copy.close();
  }
}

/**
 * Writes a copy of `db` to `target`, which must not exist (nor be a link, dangling or not). The copy holds what the
 * store holds (e-mail addresses, key hashes), so it is written to a fresh file opened exclusively with mode 0600
 * beside the target, checked by `check`, and only then linked into place: no one can read it while it is written,
 * nothing is written through a link planted at the target, and an existing file is never replaced.
 */
export function vacuumIntoNewFile(db: Database.Database, target: string, check?: (copy: Database.Database) => void): void {
  refuseExisting(target);
  const partial = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  closeSync(openSync(partial, 'wx', 0o600)); // VACUUM INTO accepts an empty file and keeps its mode
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    if (check) {
      const copy = new Database(partial, { readonly: true, fileMustExist: true });
      try {
        check(copy);
      } finally {
        copy.close();
      }
    }
    // link() fails when anything, a link included, has appeared at the target since: the copy never overwrites.
    try {
      linkSync(partial, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError(alreadyExists(target));
      throw err;
    }
  } finally {
    unlinkSync(partial);
  }
}

function refuseExisting(target: string): void {
  if (exists(target)) throw new BackupError(alreadyExists(target));
}

/** Whether anything is at `path`, a link to nowhere included (existsSync follows links and says no). */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const alreadyExists = (target: string) => `${target} already exists: choose a new file name (a backup never overwrites, and never writes through a link)`;
