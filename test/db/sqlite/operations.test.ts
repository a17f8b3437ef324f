// The SQLite file as an operator meets it: created owner-only (with its -wal and -shm), versioned with ordered
// steps, an unversioned 1.2 file upgraded with a copy made first, a file from a newer release refused untouched,
// a damaged file refused at open naming its path, and an online backup that is a consistent, checked copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_MIGRATIONS, SqliteRepo, StoreFileError } from '../../../db/sqlite/repo.js';
import { SchemaVersionError } from '../../../db/sqlite/migrations.js';
import { createRepo } from '../../../db/index.js';
import { backupSqlite, BackupError } from '../../../db/sqlite/backup.js';
import type { ScanRecord } from '../../../db/repo.js';

const LATEST = SQLITE_MIGRATIONS.at(-1)!.version;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'srk-sqlite-ops-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function saveOne(repo: SqliteRepo, host: string): Promise<ScanRecord> {
  const scan: ScanRecord = {
    id: await repo.allocateScanId(),
    host,
    vertical: null,
    score: 71,
    grade: 'C',
    capped: false,
    agentReady: false,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    ownerKeyId: null,
    report: { host, score: 71 },
  };
  await repo.saveScan(scan);
  return scan;
}

const mode = (file: string) => statSync(file).mode & 0o777;

test('a new store file, its WAL and shared-memory files are owner-only (0600)', async (t) => {
  const dir = tempDir(t);
  const repo = new SqliteRepo(join(dir, 'data', 'store.db'));
  await repo.init();
  await saveOne(repo, 'mode.test');
  for (const name of ['store.db', 'store.db-wal', 'store.db-shm']) {
    const file = join(dir, 'data', name);
    assert.ok(existsSync(file), name);
    assert.equal(mode(file).toString(8), '600', name);
  }
  assert.equal(mode(join(dir, 'data')).toString(8), '700', 'DATA_DIR made owner-only');
  await repo.close();
});

test('a new file is at the newest schema version, with no copy made', async (t) => {
  const dir = tempDir(t);
  const repo = new SqliteRepo(join(dir, 'store.db'));
  await repo.init();
  await repo.close();
  const db = new Database(join(dir, 'store.db'));
  assert.equal(db.pragma('user_version', { simple: true }), LATEST);
  db.close();
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.bak')), []);
});

test('an unversioned file (as 1.2 made it) upgrades to the newest version, a copy made first, every scan kept', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'store.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  const saved = await saveOne(repo, 'old.test');
  await repo.close();
  // What 1.2 left: the same tables without the readiness table, and no version.
  const old = new Database(file);
  old.exec('DROP TABLE health_probe');
  old.pragma('user_version = 0');
  old.close();

  const upgraded = new SqliteRepo(file);
  await upgraded.init();
  assert.deepEqual(upgraded.migration?.from, 0);
  assert.deepEqual(upgraded.migration?.to, LATEST);
  assert.equal((await upgraded.getScan(saved.id))?.host, 'old.test');
  assert.equal((await upgraded.latestByHost('old.test'))?.score, 71);
  await upgraded.ping(); // the readiness table is there again
  await upgraded.close();

  const copies = readdirSync(dir).filter((f) => /^store\.db\.v0-.*\.bak$/.test(f));
  assert.equal(copies.length, 1, readdirSync(dir).join(', '));
  assert.equal(upgraded.migration?.backup, join(dir, copies[0]));
  assert.equal(mode(join(dir, copies[0])).toString(8), '600');
  const copy = new Database(join(dir, copies[0]), { readonly: true });
  assert.equal(copy.pragma('user_version', { simple: true }), 0, 'the copy is the file as it was');
  assert.equal((copy.prepare('SELECT count(*) AS n FROM scans').get() as { n: number }).n, 1);
  copy.close();
});

test('a file from a newer release is refused, naming the file and both versions, and left untouched', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'store.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  await saveOne(repo, 'newer.test');
  await repo.close();
  const db = new Database(file);
  db.pragma(`user_version = ${LATEST + 1}`);
  db.close();
  const before = statSync(file).mtimeMs;

  await assert.rejects(createRepo({ DATA_DIR: dir, MONGODB_DB: 'x' }), (err: unknown) => {
    assert.ok(err instanceof SchemaVersionError, String(err));
    assert.ok(err.message.includes(file), err.message);
    assert.match(err.message, new RegExp(`schema version ${LATEST + 1}, newer than this release understands \\(${LATEST}\\)`));
    return true;
  });
  const after = new Database(file);
  assert.equal(after.pragma('user_version', { simple: true }), LATEST + 1);
  after.close();
  assert.equal(statSync(file).mtimeMs, before);
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.bak')), []);
});

test('a file damaged in the middle, or not a database at all, is refused at open with its path', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'store.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  for (let i = 0; i < 200; i++) await saveOne(repo, `h${i}.test`);
  await repo.close(); // the last connection checkpoints the WAL into the file
  const pages = statSync(file).size / 4096;
  assert.ok(pages > 10, `${pages} pages`);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(pages / 2) * 4096);
  closeSync(fd);
  await assert.rejects(createRepo({ DATA_DIR: dir, MONGODB_DB: 'x' }), (err: unknown) => {
    assert.ok(err instanceof StoreFileError, String(err));
    assert.ok(err.message.startsWith(`${file} is not a usable store`), err.message);
    return true;
  });

  const other = tempDir(t);
  const fd2 = openSync(join(other, 'store.db'), 'w');
  writeSync(fd2, Buffer.alloc(8192, 0x42));
  closeSync(fd2);
  await assert.rejects(createRepo({ DATA_DIR: other, MONGODB_DB: 'x' }), (err: unknown) => err instanceof StoreFileError && /SQLITE_NOTADB/.test(err.message));
});

test('a backup is a checked, owner-only copy with every committed scan, and never overwrites a file', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'store.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  for (let i = 0; i < 5; i++) await saveOne(repo, `b${i}.test`);
  // The connection stays open: the scans are in the WAL, as while the service runs.
  assert.ok(statSync(`${file}-wal`).size > 0);
  const summary = backupSqlite(file, join(dir, 'copy.db'));
  assert.deepEqual({ scans: summary.scans, schemaVersion: summary.schemaVersion }, { scans: 5, schemaVersion: LATEST });
  assert.equal(mode(join(dir, 'copy.db')).toString(8), '600');
  assert.throws(() => backupSqlite(file, join(dir, 'copy.db')), (err: unknown) => err instanceof BackupError && /already exists/.test(err.message));
  await repo.close();
});

test('a backup target that is a link, dangling or not, is refused and nothing is written through it', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'store.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  await saveOne(repo, 'link.test');
  symlinkSync(join(dir, 'elsewhere.db'), join(dir, 'dangling.db'));
  writeFileSync(join(dir, 'precious.txt'), 'keep me');
  symlinkSync(join(dir, 'precious.txt'), join(dir, 'to-file.db'));
  for (const name of ['dangling.db', 'to-file.db']) {
    assert.throws(() => backupSqlite(file, join(dir, name)), (err: unknown) => err instanceof BackupError && /already exists/.test(err.message), name);
  }
  assert.equal(existsSync(join(dir, 'elsewhere.db')), false, 'nothing written where the dangling link points');
  assert.equal(statSync(join(dir, 'precious.txt')).size, 'keep me'.length);
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('partial')), [], 'no partial copy left behind');
  await repo.close();
});

test('a backup is never readable by others while it is written, whatever the umask', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'store.db');
  const repo = new SqliteRepo(file);
  await repo.init();
  // A store of some megabytes, so the copy takes long enough for a watcher on another thread to see it being written.
  const big = 'x'.repeat(200_000);
  for (let i = 0; i < 60; i++) {
    const scan = await saveOne(repo, `big${i}.test`);
    await repo.saveScan({ ...scan, id: await repo.allocateScanId(), report: { host: scan.host, padding: big + i } });
  }
  const target = join(dir, 'copy.db');
  // The watcher lists the folder in a loop and notes the mode of every file other than the store's own.
  const watcher = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const { readdirSync, lstatSync } = require('node:fs');
     const seen = {};
     let stop = false;
     parentPort.on('message', () => { stop = true; });
     parentPort.postMessage('ready');
     (function look() {
       for (const name of readdirSync(workerData.dir)) {
         if (name.startsWith('store.db')) continue;
         try { seen[name] = (seen[name] || 0) | (lstatSync(workerData.dir + '/' + name).mode & 0o777); } catch {}
       }
       if (stop) parentPort.postMessage(seen); else setImmediate(look);
     })();`,
    { eval: true, workerData: { dir } },
  );
  await new Promise((resolve) => watcher.once('message', resolve));
  const umask = process.umask(0);
  try {
    backupSqlite(file, target);
  } finally {
    process.umask(umask);
  }
  const seen = await new Promise<Record<string, number>>((resolve) => {
    watcher.once('message', resolve);
    watcher.postMessage('stop');
  });
  await watcher.terminate();
  assert.ok(Object.keys(seen).length > 0, 'the watcher saw the copy being made');
  for (const [name, bits] of Object.entries(seen)) assert.equal((bits & 0o077).toString(8), '0', `${name} was readable by others (${bits.toString(8)})`);
  assert.equal(mode(target).toString(8), '600');
  await repo.close();
});
