// Runs the Repository, monitoring and account contracts against SQLite, in memory and in a file, and checks that a
// file survives a reopen and that the console's scans page reads one index range.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, test } from 'node:test';
import { createRepo } from '../../../db/index.js';
import Database from 'better-sqlite3';
import { HOSTS_BY_PREFIX_SQL, SqliteRepo } from '../../../db/sqlite/repo.js';
import { runRepositoryContract } from '../contract.js';
import type { Repository } from '../../../db/repo.js';
import { runMonitoringContract } from '../monitoring-contract.js';
import { runAccountRepoContract } from '../accounts-contract.js';
import { runQueueContract } from '../queue-contract.js';
import { runSigningKeysContract } from '../signing-keys-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function inMemory(): Promise<SqliteRepo> {
  const repo = new SqliteRepo(':memory:');
  await repo.init();
  return repo;
}

/** The connection turns read-only (SQLITE_READONLY on every write), as a file the process may not write. */
async function refuseWrites(repo: Repository): Promise<() => Promise<void>> {
  const db = (repo as unknown as { db: Database.Database }).db;
  db.pragma('query_only = ON');
  return async () => void db.pragma('query_only = OFF');
}

runRepositoryContract('SqliteRepo (:memory:)', inMemory, { refuseWrites });

// Two adapters on one file stand for two service instances on one store.
const fileOf = new WeakMap<object, string>();
async function openFile(file: string): Promise<SqliteRepo> {
  const repo = new SqliteRepo(file);
  await repo.init();
  fileOf.set(repo, file);
  return repo;
}

runRepositoryContract('SqliteRepo (file)', () => openFile(join(dir, `contract-${++files}.db`)), {
  sibling: (repo) => openFile(fileOf.get(repo)!),
  refuseWrites,
});

runMonitoringContract('SqliteRepo (:memory:)', inMemory);

runMonitoringContract('SqliteRepo (file)', () => openFile(join(dir, `monitoring-${++files}.db`)), {
  twinOf: (repo) => openFile(fileOf.get(repo)!),
});

runAccountRepoContract('SqliteRepo accounts (:memory:)', inMemory);
runAccountRepoContract('SqliteRepo accounts (file)', () => openFile(join(dir, `accounts-${++files}.db`)));
runQueueContract('SqliteRepo (:memory:)', inMemory);
runQueueContract('SqliteRepo (file)', () => openFile(join(dir, `queue-${++files}.db`)), { twinOf: (repo) => openFile(fileOf.get(repo)!) });


runSigningKeysContract('SqliteRepo signing keys (:memory:)', inMemory);
runSigningKeysContract('SqliteRepo signing keys (file)', () => openFile(join(dir, `signing-keys-${++files}.db`)));

describe('SqliteRepo persistence', () => {
  it('keeps scans, latest, ranks, keys, usage, delisting and the id counter across a reopen', async () => {
    const file = join(dir, 'nested', 'deeper', 'store.db'); // the parent folders do not exist yet
    const first = new SqliteRepo(file);
    await first.init();
    const base = { vertical: 'food', grade: 'B', capped: false, agentReady: true, ownerKeyId: null };
    const ids = [await first.allocateScanId(), await first.allocateScanId(), await first.allocateScanId()];
    await first.saveScan({ ...base, id: ids[0], host: 'a.example', score: 80, createdAt: new Date(1000), report: { a: 1 } });
    await first.saveScan({ ...base, id: ids[1], host: 'b.example', score: 70, createdAt: new Date(2000), report: { b: [2] } });
    await first.saveScan({ ...base, id: ids[2], host: 'c.example', score: 60, createdAt: new Date(3000), report: null });
    await first.setDelisted('c.example', true);
    await first.putApiKey({ id: 'key_1', keyHash: 'f'.repeat(64), owner: 'o', plan: 'pro', createdAt: new Date(5), revokedAt: null });
    await first.incrementUsage('k', '2025-03', 7);
    const before = await first.rankWindow('b.example');
    await first.close();

    const second = new SqliteRepo(file);
    await second.init();
    try {
      assert.deepEqual((await second.getScan(ids[1]))?.report, { b: [2] });
      assert.equal((await second.getScan(ids[2]))?.report, null);
      assert.deepEqual(await second.rankWindow('b.example'), before);
      assert.equal(await second.countStores('food'), 2);
      assert.equal(await second.isDelisted('c.example'), true);
      assert.equal((await second.findApiKey('f'.repeat(64)))?.id, 'key_1');
      assert.equal(await second.getUsage('k', '2025-03'), 7);
      assert.ok((await second.allocateScanId()) > ids[2], 'ids keep increasing after a reopen');
    } finally {
      await second.close();
    }
  });

  it('createRepo picks SQLite at DATA_DIR/store.db when MONGODB_URI is unset', async () => {
    const dataDir = join(dir, 'data');
    const repo = await createRepo({ MONGODB_DB: 'unused', DATA_DIR: dataDir });
    try {
      assert.ok(repo instanceof SqliteRepo);
      await repo.ping();
      await repo.incrementUsage('k', 'p');
    } finally {
      await repo.close();
    }
    const again = new SqliteRepo(join(dataDir, 'store.db'));
    await again.init();
    assert.equal(await again.getUsage('k', 'p'), 1);
    await again.close();
  });

  it('refuses to be used before init()', async () => {
    const repo = new SqliteRepo(':memory:');
    await assert.rejects(repo.getScan(1), /init\(\)/);
    await repo.close();
  });
});

describe('SqliteRepo host completion', () => {
  it('reads a range of the host key, never the whole table', async () => {
    const file = join(dir, 'plan.db');
    const repo = new SqliteRepo(file);
    await repo.init();
    await repo.close();
    const db = new Database(file, { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${HOSTS_BY_PREFIX_SQL}`)
        .all('sho', 'sho\uffff', 1000, 100) as { detail: string }[];
      const details = plan.map((row) => row.detail).join('\n');
      assert.match(details, /SEARCH latest USING PRIMARY KEY \(host>\? AND host<\?\)/);
      assert.doesNotMatch(details, /SCAN latest/);
    } finally {
      db.close();
    }
  });
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
