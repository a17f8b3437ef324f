// The AccountRepo contract on the embedded store, in memory and in a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SqliteRepo } from '../../store/sqlite.js';
import { runAccountRepoContract } from './accounts-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'accounts-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

runAccountRepoContract('SqliteRepo accounts (:memory:)', async () => {
  const repo = new SqliteRepo(':memory:');
  await repo.init();
  return repo;
});

runAccountRepoContract('SqliteRepo accounts (file)', async () => {
  const repo = new SqliteRepo(join(dir, `accounts-${++files}.db`));
  await repo.init();
  return repo;
});
