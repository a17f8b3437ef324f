// An online, consistent copy of the SQLite store while the service runs: VACUUM INTO reads the whole file in one
// read transaction (a snapshot: every scan committed before it started, none half), never blocks the service's
// writes (WAL), and writes a compact file with the WAL folded in. Copying store.db with cp is not a backup: the
// newest data lives in store.db-wal until a checkpoint.
import Database from 'better-sqlite3';
import { chmodSync, existsSync, statSync } from 'node:fs';

export interface BackupSummary {
  file: string;
  bytes: number;
  scans: number;
  schemaVersion: number;
}

export class BackupError extends Error {}

export function backupSqlite(source: string, target: string): BackupSummary {
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose a new file name (a backup never overwrites)`);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist: is DATA_DIR the service's?`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  chmodSync(target, 0o600); // it holds what the store holds: e-mail addresses and key hashes
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copy ${target} failed its check (${String(check)}); it should not be used`);
    const scans = (copy.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n;
    return { file: target, bytes: statSync(target).size, scans, schemaVersion: copy.pragma('user_version', { simple: true }) as number };
  } finally {
    copy.close();
  }
}
