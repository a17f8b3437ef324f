// docs/security.md F1 (the store failing under the running service) and a store that resets connections mid-body.
// Faults are injected the way they happen: the disk fills up (PRAGMA max_page_count on the service's own
// connection, the only one it applies to), or another process holds the write lock on the file. Every answer must
// be a 503 JSON SERVICE_UNAVAILABLE with Retry-After or a normal answer — never a 500, never a crash — and the
// service must recover by itself, without a restart, once the fault is lifted: the next scan goes through. How long
// the fault costs and how soon the service is back is measured by `npm run bench`.
import '../support/loopback-guard.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { call, startApp, type Answer, type TestApp } from '../helpers/start-app.js';
import { startFixtureStore, startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { saveFakeScan } from '../helpers/scans.js';
import { brochureStore, htmlPage, page, text } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { assertWithin } from '../helpers/timing.js';

const dbOf = (app: TestApp) => (app.db as unknown as { db: Database.Database }).db;

function assertUnavailable(res: Answer, label: string): void {
  assert.equal(res.status, 503, `${label}: ${res.status} ${res.text.slice(0, 200)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, label);
  assert.equal(res.body.code, 'SERVICE_UNAVAILABLE', label);
  assert.equal(res.body.error, res.body.message, label);
  assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/, `${label}: Retry-After`);
}

let app: TestApp;
let shop: FixtureStore;
let seeded: ScanResult;

before(async () => {
  app = await startApp(null);
  shop = await startStoreFrom(brochureStore);
  seeded = await saveFakeScan(app.db, { host: 'seeded.test', score: 72 });
});
after(async () => {
  await shop?.close();
  await app?.close();
});

const scan = () => call(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
const mcpCheck = () =>
  call(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_merchant_readiness', arguments: { host: 'seeded.test' } } }),
  });

/** Reads a mixed bag of surfaces concurrently with scans for `ms`, returning every status seen. */
async function load(ms: number): Promise<number[]> {
  const statuses: number[] = [];
  const end = Date.now() + ms;
  const reads = [`/api/v1/scan/${seeded.scan_id}.json`, '/badge/seeded.test.svg', '/verify/seeded.test', `/r/${seeded.scan_id}`, '/api/v1', '/index'];
  const worker = async (i: number) => {
    while (Date.now() < end) {
      const res = i === 0 ? await scan() : i === 1 ? await mcpCheck() : await call(`${app.url}${reads[(i + statuses.length) % reads.length]}`);
      statuses.push(res.status);
      assert.doesNotMatch(res.text, /\n\s+at |node_modules|\/work\//);
    }
  };
  await Promise.all(Array.from({ length: 6 }, (_, i) => worker(i)));
  return statuses;
}

describe('F1: the store fails under the running service', () => {
  test('disk full: scans answer 503 + Retry-After (never 500), reads stay 200, and scans recover at once when space returns', async () => {
    const db = dbOf(app);
    const before = await app.db.countStores();
    assert.equal((await scan()).status, 200, 'control');
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    let lifted = false;
    try {
      const first = await scan();
      assertUnavailable(first, 'scan on a full disk');
      const reads = await Promise.all([
        call(`${app.url}/api/v1/scan/${seeded.scan_id}.json`),
        call(`${app.url}/badge/seeded.test.svg`),
        call(`${app.url}/verify/seeded.test`),
        call(`${app.url}/r/${seeded.scan_id}`),
        mcpCheck(),
      ]);
      assert.deepEqual(reads.map((r) => r.status), [200, 200, 302, 200, 200]);
      assert.deepEqual(reads[0].body, seeded);
      const statuses = await load(1500);
      assert.ok(statuses.length > 10, `${statuses.length} requests under load`);
      assert.deepEqual([...new Set(statuses)].filter((s) => ![200, 302, 503].includes(s)), [], `statuses under the fault: ${[...new Set(statuses)]}`);
      assert.ok(statuses.includes(503), 'scans were refused while the disk was full');
      assert.equal((await call(`${app.url}/healthz`)).status, 200, 'process alive');

      db.pragma('max_page_count = 1073741823');
      lifted = true;
      const recovered = await scan();
      assert.equal(recovered.status, 200, `the first scan once space returns goes through, without a restart: ${recovered.text.slice(0, 200)}`);
      assert.ok((await app.db.countStores()) >= Math.max(before, 1));
    } finally {
      if (!lifted) db.pragma('max_page_count = 1073741823');
    }
  });

  test('write lock held by another process: scans 503 + Retry-After before any fetch, reads 200, 0 × 500; the next scan after it goes through', async () => {
    const other = new Database(join(app.dataDir, 'store.db'));
    other.exec('BEGIN IMMEDIATE');
    other.exec("INSERT INTO delisted (host, at) VALUES ('lock.test', 0)");
    let locked = true;
    try {
      const seen = shop.requests.length;
      assertUnavailable(await scan(), 'scan on a locked store');
      assert.equal(shop.requests.length, seen, 'a scan refused for an unavailable store sends nothing to the store');
      const reads = await Promise.all([
        call(`${app.url}/api/v1/scan/${seeded.scan_id}.json`),
        call(`${app.url}/badge/seeded.test.svg`),
        call(`${app.url}/r/${seeded.scan_id}`),
        mcpCheck(),
        call(`${app.url}/healthz`),
      ]);
      assert.deepEqual(reads.map((r) => r.status), [200, 200, 200, 200, 200], 'reads are served from the store while writes wait');
      const statuses = await load(1200);
      assert.deepEqual([...new Set(statuses)].filter((s) => ![200, 302, 503].includes(s)), [], `statuses: ${[...new Set(statuses)]}`);
      assert.ok(statuses.includes(503), 'scans were refused while the lock was held');

      other.exec('ROLLBACK');
      other.close();
      locked = false;
      const scanned = await scan();
      assert.equal(scanned.status, 200, `the first scan once the lock is gone goes through, without a restart: ${scanned.text.slice(0, 200)}`);
      assert.equal((await call(`${app.url}/readyz`)).status, 200);
    } finally {
      if (locked) {
        other.exec('ROLLBACK');
        other.close();
      }
    }
    // Nothing half-written: the file is intact.
    assert.equal(dbOf(app).pragma('integrity_check', { simple: true }), 'ok');
  });

  // better-sqlite3 waits for a lock synchronously: a long busy_timeout, or read counters flushed into a locked
  // store every 200 ms, would freeze the process (/healthz included) while another process holds the lock.
  test(
    'while another process holds the write lock, the event loop is never blocked for long',
    async () => {
      const other = new Database(join(app.dataDir, 'store.db'));
      other.exec('BEGIN IMMEDIATE');
      other.exec("INSERT INTO delisted (host, at) VALUES ('lock.test', 0)");
      try {
        assert.equal((await call(`${app.url}/api/v1`)).status, 200); // a read: its counter is flushed shortly after
        const started = Date.now();
        await new Promise((r) => setTimeout(r, 400));
        const blocked = Date.now() - started - 400;
        // A flush waits at most 250 ms for the lock; a 5 s busy_timeout would freeze the loop for 5 s.
        assertWithin('lateness of a 400 ms timer', blocked, 250);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
    },
  );
});

describe('a store that resets connections mid-body', () => {
  /** Sends the headers and half a page, then resets the connection. */
  const resetMidBody = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '100000' });
    res.write(htmlPage({ title: 'Cut', body: '<h1>Cut short</h1><a href="/products/one">one</a>' }).slice(0, 300));
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
  };
  const resetAtOnce = (req: IncomingMessage) => req.socket.resetAndDestroy();
  const HOME = page(htmlPage({ title: 'Shop', body: '<h1>Shop</h1><a href="/products/one">one</a>' }));

  for (const path of ['/robots.txt', '/products/one', '/llms.txt']) {
    test(`${path} reset mid-body: the scan completes (200) with that resource failed`, async (t) => {
      const store = await startFixtureStore({ '/': HOME, '/robots.txt': text('User-agent: *\nAllow: /\n'), [path]: resetMidBody });
      t.after(() => store.close());
      const res = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const outcomes = (res.body as ScanResult).fetched.filter((f) => f.url === `${store.origin}${path}`).map((f) => f.outcome);
      assert.ok(outcomes.length > 0 && outcomes.every((o) => o !== 'ok'), `${path}: ${outcomes}`);
    });
  }

  test('the home page reset mid-body is scored on what arrived (200); reset before any answer is 502 STORE_UNREACHABLE', async (t) => {
    const partial = await startFixtureStore({ '/': resetMidBody });
    const silent = await startFixtureStore({ '*': resetAtOnce });
    t.after(() => Promise.all([partial.close(), silent.close()]));
    const cut = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(partial.url)}`);
    assert.equal(cut.status, 200, cut.text.slice(0, 300));
    assert.ok((cut.body as ScanResult).fetched.filter((f) => f.url === partial.url).every((f) => f.outcome === 'error'));
    const before = await app.db.countStores();
    const gone = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(silent.url)}`);
    assert.equal(gone.status, 502, gone.text.slice(0, 300));
    assert.equal(gone.body.code, 'STORE_UNREACHABLE');
    assert.equal(await app.db.countStores(), before, 'nothing stored for the unreachable store');
  });
});
