// The SQLite DATA_DIR under the running service: `npm run cli -- backup FILE` while scans run yields a file with
// every scan acknowledged before it began; a store file from a newer release stops start-up with one line naming
// it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { REPO_ROOT, startChildServer } from '../support/child-server.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { SQLITE_MIGRATIONS } from '../../db/sqlite/repo.js';

/** Runs the entry with an environment until it exits (at most 90 s): its exit code and output lines. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), MONITOR: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, lines: out.split('\n').filter(Boolean) });
    }),
  );
}

test('a backup taken while scans run holds every scan acknowledged before it began', { timeout: 240_000 }, async (t) => {
  const stores: FixtureStore[] = [];
  for (let i = 0; i < 4; i++) stores.push(await startStoreFrom(completeStore));
  const server = await startChildServer({ env: { SCAN_ALLOW_PRIVATE: '1', ANON_SCANS_PER_HOUR: '100000', MONITOR: 'off' }, startTimeoutMs: 90_000 });
  t.after(async () => {
    await server.stop();
    await Promise.all(stores.map((s) => s.close()));
  });
  const acknowledged: { id: number; at: number }[] = [];
  let scanning = true;
  const loop = async (store: FixtureStore) => {
    while (scanning) {
      const res = await fetch(`${server.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
      const body = (await res.json()) as { scan_id?: number };
      assert.equal(res.status, 200, JSON.stringify(body));
      acknowledged.push({ id: body.scan_id!, at: Date.now() });
    }
  };
  const loops = stores.map(loop);
  while (acknowledged.length < 8) await new Promise((r) => setTimeout(r, 50));

  const file = join(mkdtempSync(join(tmpdir(), 'srk-backup-')), 'backup.db');
  // What was acknowledged by now is what the backup must hold (a clock reading could tie with a later answer's).
  const ackedBefore = acknowledged.length;
  const began = Date.now();
  const backup = await run(['server/cli.ts', 'backup', file], { DATA_DIR: server.dataDir });
  const during = acknowledged.filter((a) => a.at > began).length;
  scanning = false;
  await Promise.all(loops);
  assert.equal(backup.code, 0, backup.lines.join('\n'));
  const summary = JSON.parse(backup.lines.at(-1)!) as { file: string; scans: number; schemaVersion: number };
  assert.equal(summary.file, file);

  const copy = new Database(file, { readonly: true });
  const ids = new Set((copy.prepare('SELECT id FROM scans').all() as { id: number }[]).map((r) => r.id));
  assert.equal(copy.pragma('quick_check', { simple: true }), 'ok');
  copy.close();
  const before = acknowledged.slice(0, ackedBefore);
  assert.ok(before.length >= 8);
  assert.deepEqual(before.filter((a) => !ids.has(a.id)), [], 'every scan acknowledged before the backup began is in it');
  assert.equal(ids.size, summary.scans);
  t.diagnostic(`${before.length} scans before the backup, ${during} acknowledged while it ran, ${ids.size} in the copy`);
});

test('a store file from a newer release stops start-up with one line naming it', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-newer-'));
  const db = new Database(join(dataDir, 'store.db'));
  db.exec('CREATE TABLE scans (id INTEGER PRIMARY KEY)');
  db.pragma(`user_version = ${SQLITE_MIGRATIONS.at(-1)!.version + 1}`);
  db.close();
  const started = await run(['server/main.ts'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
  assert.equal(started.code, 1);
  assert.equal(started.lines.length, 1, started.lines.join('\n'));
  const line = JSON.parse(started.lines[0]) as { level: number; msg: string };
  assert.equal(line.level, 60);
  assert.ok(line.msg.includes(join(dataDir, 'store.db')), line.msg);
  assert.match(line.msg, /newer than this release understands/);
});
