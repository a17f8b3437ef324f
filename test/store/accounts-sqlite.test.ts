// The AccountRepo contract on the embedded store, in memory and in a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
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

test('the scans page reads one index range: no scan of the table and no sort, with or without a host filter', async () => {
  const file = join(dir, 'plan.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  await repo.close();
  const db = new Database(file, { readonly: true });
  after(() => db.close());
  const plan = (sql: string) => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ a: 'acct', h: 'h.test', before: 1e15, n: 51 }).map((r) => (r as { detail: string }).detail);
  const outer = plan(`SELECT s.id FROM scans AS s INDEXED BY scans_owner_id WHERE s.owner_account_id = @a AND s.id < @before ORDER BY s.id DESC LIMIT @n`);
  assert.ok(outer.some((d) => /SEARCH s USING (COVERING )?INDEX scans_owner_id/.test(d)), outer.join('; '));
  assert.ok(!outer.some((d) => /TEMP B-TREE|SCAN s\b/.test(d)), outer.join('; '));
  const prev = plan('SELECT p.score FROM scans AS p WHERE p.host = @h AND p.id < @before ORDER BY p.id DESC LIMIT 1');
  assert.ok(prev.some((d) => /INDEX scans_host_id/.test(d)) && !prev.some((d) => /TEMP B-TREE/.test(d)), prev.join('; '));
});
