// GET /healthz (the process is up) and GET /readyz (the store reads and takes a write): JSON, never rate limited
// and never counted, yet carrying the RateLimit headers like every other answer; /healthz touches no store (it
// answers while the store hangs), /readyz is 503 when the store fails, is full or cannot be written, and during
// shutdown.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import Database from 'better-sqlite3';
import { startApp, type TestApp } from '../helpers/start-app.js';

async function get(url: string) {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Record<string, unknown> };
}

/**
 * Another connection holds the write lock on the store's file (a second instance, a backup): every write of the
 * service fails with SQLITE_BUSY. better-sqlite3 waits busy_timeout synchronously (5 s in the repo); the test
 * shortens the wait on the service's connection so each refused request costs 200 ms instead of 5 s.
 */
function lockStore(app: TestApp): () => void {
  (app.db as unknown as { db: Database.Database }).db.pragma('busy_timeout = 200');
  const other = new Database(join(app.dataDir, 'store.db'));
  other.exec('BEGIN IMMEDIATE');
  other.exec("INSERT INTO delisted (host, at) VALUES ('lock.test', 0)");
  return () => {
    other.exec('ROLLBACK');
    other.close();
  };
}

test('/healthz and /readyz answer JSON with RateLimit headers and are never rate limited (ANON_READS_PER_MINUTE=2, 10 calls each)', async (t) => {
  const app = await startApp(t, { ANON_READS_PER_MINUTE: '2' });
  for (const path of ['/healthz', '/readyz']) {
    for (let i = 0; i < 10; i++) {
      const res = await get(`${app.url}${path}`);
      assert.equal(res.status, 200, `${path} #${i + 1}: ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(res.body, { status: path === '/healthz' ? 'ok' : 'ready' });
      assert.match(res.headers.get('ratelimit') ?? '', /^"read"; r=\d+; t=\d+$/, path);
      assert.match(res.headers.get('ratelimit-policy') ?? '', /^"read"; q=2; w=60/, path);
    }
  }
  // The limit itself works: the third ordinary read in the minute is refused.
  const codes = [];
  for (let i = 0; i < 3; i++) codes.push((await fetch(`${app.url}/api/v1`)).status);
  assert.equal(codes.at(-1), 429);
});

test('health checks do not use up the caller\'s read quota', async (t) => {
  const app = await startApp(t, { ANON_READS_PER_MINUTE: '2' });
  for (let i = 0; i < 10; i++) assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
  for (let i = 0; i < 10; i++) assert.equal((await fetch(`${app.url}/readyz`)).status, 200);
  const res = await get(`${app.url}/api/v1`);
  assert.equal(res.status, 200, 'the first ordinary read after 20 health probes');
  assert.equal(res.headers.get('retry-after'), null);
});

test('the store\'s connection gone: /readyz is 503 JSON, /healthz stays 200 (liveness does not depend on the store)', async (t) => {
  const app = await startApp(t);
  (app.db as unknown as { db: Database.Database }).db.close();
  const ready = await get(`${app.url}/readyz`);
  assert.equal(ready.status, 503, ready.text);
  assert.equal(ready.body.code, 'SERVICE_UNAVAILABLE');
  const health = await get(`${app.url}/healthz`);
  assert.equal(health.status, 200, health.text);
  assert.deepEqual(health.body, { status: 'ok' });
});

test('another process holds the store\'s write lock: /healthz stays 200', async (t) => {
  const app = await startApp(t);
  const unlock = lockStore(app);
  try {
    const res = await get(`${app.url}/healthz`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { status: 'ok' });
  } finally {
    unlock();
  }
});

test('/readyz is 503 while the server shuts down; /healthz is still 200', async (t) => {
  const app = await startApp(t);
  // serve().stop() sets app.locals.shuttingDown before closing; the flag is what /readyz reads.
  const express = app.server.listeners('request')[0] as unknown as { locals: Record<string, unknown> };
  express.locals.shuttingDown = true;
  const ready = await get(`${app.url}/readyz`);
  assert.equal(ready.status, 503);
  assert.equal(ready.body.code, 'SERVICE_UNAVAILABLE');
  assert.equal((await get(`${app.url}/healthz`)).status, 200);
});

test('the store hangs (a database that never answers): /healthz still answers at once; /readyz does not say ready', async (t) => {
  let hang = false;
  const real = new SqliteRepo(join(mkdtempSync(join(tmpdir(), 'srk-hang-')), 'store.db'));
  // Every call of the store's own methods waits forever once `hang` is set, as a MongoDB with no reachable server does.
  const db = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (hang ? new Promise(() => {}) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  const app = await startApp(t, {}, { db });
  hang = true;
  const health = await get(`${app.url}/healthz`);
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { status: 'ok' });
  assert.match(health.headers.get('ratelimit') ?? '', /^"read"; r=\d+; t=\d+$/, 'the read counters are in memory');
  const ready = await Promise.race([fetch(`${app.url}/readyz`).then((r) => r.status), new Promise((r) => setTimeout(() => r('pending'), 500))]);
  assert.notEqual(ready, 200);
  hang = false; // let the app close
});

test('a full store: /readyz is 503 while no page can be added, and 200 again once space returns', async (t) => {
  const app = await startApp(t);
  const db = (app.db as unknown as { db: Database.Database }).db;
  assert.equal((await get(`${app.url}/readyz`)).status, 200, 'control');
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  try {
    const full = await get(`${app.url}/readyz`);
    assert.equal(full.status, 503, full.text);
    assert.equal(full.body.code, 'SERVICE_UNAVAILABLE');
    assert.equal((await get(`${app.url}/healthz`)).status, 200);
  } finally {
    db.pragma('max_page_count = 1073741823');
  }
  assert.equal((await get(`${app.url}/readyz`)).status, 200, 'ready again without a restart');
});

test('a store that cannot be written (read-only): /readyz is 503', async (t) => {
  const app = await startApp(t);
  const db = (app.db as unknown as { db: Database.Database }).db;
  db.pragma('query_only = ON');
  try {
    const res = await get(`${app.url}/readyz`);
    assert.equal(res.status, 503, res.text);
  } finally {
    db.pragma('query_only = OFF');
  }
  assert.equal((await get(`${app.url}/readyz`)).status, 200);
});
