// The SQLite file's schema version (PRAGMA user_version) and the ordered steps that bring an older file to it.
// A file at version 0 is a new file or one made before versions existed (1.1, 1.2): step 1 brings either to the
// 1.2 tables, whatever columns it already had. Before any step runs on a file holding data, a copy of it is made
// beside it with VACUUM INTO (a consistent snapshot). A file newer than this release knows is refused: an older
// release must not write tables it does not understand. New steps are appended; a step never changes once
// released.
import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { vacuumIntoNewFile } from './backup.js';

export interface Migration {
  version: number;
  /** What the step does, for the log and the error when it fails. */
  does: string;
  up(db: Database.Database): void;
}

/** Thrown when the file's schema is newer than this release, or a step fails: start-up stops, naming the file. */
export class SchemaVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaVersionError';
  }
}

export interface MigrationResult {
  from: number;
  to: number;
  /** The copy made before migrating, or null when nothing was migrated or the file held no data. */
  backup: string | null;
}

/**
 * Brings the file to the newest version of `migrations` (ordered, versions 1, 2, 3...). `file` names the store in
 * messages and places the backup beside it; an in-memory store gets no backup.
 */
export function migrate(db: Database.Database, file: string, migrations: readonly Migration[], now = new Date()): MigrationResult {
  const latest = migrations.at(-1)?.version ?? 0;
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > latest) {
    throw new SchemaVersionError(
      `${file} has schema version ${from}, newer than this release understands (${latest}): it was written by a newer release. Run that release, or restore a backup made for this one.`,
    );
  }
  if (from === latest) return { from, to: from, backup: null };
  const hasData = (db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number }).n > 0;
  const backup = hasData && file !== ':memory:' ? backupBeforeMigrating(db, file, from, now) : null;
  for (const step of migrations.filter((m) => m.version > from)) {
    try {
      db.transaction(() => {
        step.up(db);
        db.pragma(`user_version = ${step.version}`);
      })();
    } catch (err) {
      throw new SchemaVersionError(`${file}: schema step ${step.version} (${step.does}) failed: ${(err as Error).message}. The file is as it was before that step${backup ? `; a copy from before migrating is ${backup}` : ''}.`);
    }
  }
  return { from, to: latest, backup };
}

/** store.db → store.db.v0-2026-11-27T01-02-03Z.bak, owner-only like the store. */
function backupBeforeMigrating(db: Database.Database, file: string, from: number, now: Date): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
  let target = `${file}.v${from}-${stamp}.bak`;
  for (let i = 2; existsSync(target); i++) target = `${file}.v${from}-${stamp}-${i}.bak`;
  vacuumIntoNewFile(db, target);
  return target;
}
