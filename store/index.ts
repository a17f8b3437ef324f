// Picks the storage adapter from configuration: MongoDB when MONGODB_URI is set, else the embedded SQLite file.
import { join } from 'node:path';
import { MongoRepo } from './mongo.js';
import type { StoreRepo } from './repo.js';
import { SqliteRepo } from './sqlite.js';

export interface StoreConfig {
  MONGODB_URI?: string;
  MONGODB_DB: string;
  DATA_DIR: string;
}

export async function createRepo(config: StoreConfig): Promise<StoreRepo> {
  const repo: StoreRepo = config.MONGODB_URI
    ? new MongoRepo(config.MONGODB_URI, config.MONGODB_DB)
    : new SqliteRepo(join(config.DATA_DIR, 'store.db'));
  try {
    await repo.init();
  } catch (err) {
    await repo.close().catch(() => undefined); // an unreachable server must not leave the client's timers running
    throw err;
  }
  return repo;
}
