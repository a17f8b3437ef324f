// One service per DATA_DIR: two instances on one SQLite file would each run the monitoring worker's timers and
// count limits in their own memory, and a copy of the folder taken by one would not be the other's. The lock is
// an exclusive SQLite lock on a small file beside the store, held for the life of the process: the kernel lets it
// go when the process ends, however it ends, so a crashed instance never blocks the next start. The command line
// (keys, backups) does not take it and works beside the running service.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

export const LOCK_FILE = 'instance.lock';

export class InstanceLockedError extends Error {
  constructor(readonly dataDir: string) {
    super(`DATA_DIR: ${dataDir} is in use by another running instance of the service; stop it, or give this one its own DATA_DIR (several instances share MONGODB_URI, not a SQLite file)`);
    this.name = 'InstanceLockedError';
  }
}

export interface InstanceLock {
  release(): void;
}

export function lockDataDir(dataDir: string): InstanceLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, LOCK_FILE));
  try {
    db.pragma('busy_timeout = 0');
    // Exclusive locking mode keeps the write lock taken by the first write until the connection closes.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, started_at INTEGER)');
    db.prepare('INSERT INTO holder (pid, started_at) VALUES (?, ?)').run(process.pid, Date.now());
    db.exec('DELETE FROM holder WHERE rowid < (SELECT max(rowid) FROM holder)');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new InstanceLockedError(dataDir);
    throw err;
  }
  return { release: () => db.open && db.close() };
}
