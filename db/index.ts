// Picks the storage adapter from configuration: MongoDB when MONGODB_URI is set, else the embedded SQLite file.
import { join } from 'node:path';
import { MongoRepo } from './mongo/repo.js';
import type { Repository } from './repo.js';
import { SqliteRepo, StoreFileError } from './sqlite/repo.js';

export interface StoreConfig {
  MONGODB_URI?: string;
  MONGODB_DB: string;
  DATA_DIR: string;
}

export async function createRepo(config: StoreConfig): Promise<Repository> {
  const file = join(config.DATA_DIR, 'store.db');
  let repo: Repository;
  try {
    repo = config.MONGODB_URI ? new MongoRepo(config.MONGODB_URI, config.MONGODB_DB) : new SqliteRepo(file);
  } catch (err) {
    throw damaged(err, file);
  }
  try {
    await repo.init();
  } catch (err) {
    await repo.close().catch(() => undefined); // an unreachable server must not leave the client's timers running
    throw config.MONGODB_URI ? err : damaged(err, file);
  }
  return repo;
}

/** SQLite's "not a database" and "malformed" name the file; other errors pass as they are. */
function damaged(err: unknown, file: string): unknown {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code) ? new StoreFileError(file, code) : err;
}

export { StoreFileError };
export { SchemaVersionError } from './sqlite/migrations.js';
