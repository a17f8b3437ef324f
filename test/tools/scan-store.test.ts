// GET /api/v1/scan end to end: real app, real store, real scans of loopback fixture stores.
import { sequenceOf } from '../../lib/scan-ids.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp, type TestApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { saveFakeScan } from '../helpers/scans.js';
import { ScanResult } from '../../schemas/scan-result.js';
import { brochureStore, completeStore, silentStore } from '../fixtures/stores.js';
import { assertWithin } from '../helpers/timing.js';

async function store(t: { after(fn: () => unknown): void }, build = brochureStore): Promise<FixtureStore> {
  const s = await startStoreFrom(build);
  t.after(() => s.close());
  return s;
}

const scan = (app: TestApp, query: string, init?: RequestInit) => getJson(`${app.url}/api/v1/scan?${query}`, init);
const urlOf = (s: FixtureStore) => `url=${encodeURIComponent(s.url)}`;

test('a scan answers the full ScanResult, stores exactly that, and serves it back by id', async (t) => {
  const app = await startApp(t);
  const shop = await store(t, completeStore);
  const res = await scan(app, urlOf(shop));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const parsed = ScanResult.safeParse(res.body);
  assert.ok(parsed.success, parsed.error?.message);
  const body = res.body as ScanResult;
  assert.equal(body.report_url, `http://localhost:3000/r/${body.scan_id}`);
  assert.ok(Number.isInteger(body.scan_id));
  assert.equal(body.host, `127.0.0.1:${shop.port}`);
  assert.equal(body.grade, 'A');
  assert.deepEqual(body.neighbors, [{ rank: 1, host: body.host, score: body.score, grade: body.grade, is_self: true }]);
  assert.ok(body.products.length >= 1 && body.products[0].price?.value, 'what agents see on a product page');
  for (const prefix of ['/api/v1', '/api']) {
    const stored = await getJson(`${app.url}${prefix}/scan/${body.scan_id}.json`);
    assert.deepEqual(stored.body, res.body);
  }
});

test('/api/scan is the same endpoint as /api/v1/scan', async (t) => {
  const app = await startApp(t);
  const shop = await store(t);
  const res = await getJson(`${app.url}/api/scan?${urlOf(shop)}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.host, `127.0.0.1:${shop.port}`);
});

test('neighbors: up to 2 above, self, up to 2 below, in rank order — top, middle, bottom and per vertical', async (t) => {
  const app = await startApp(t);
  const shop = await store(t);
  const first = await scan(app, urlOf(shop));
  const own = first.body.score as number;
  // A dozen stores around the scanned one: six above, six below, two verticals.
  const seeded = [];
  for (let i = 1; i <= 6; i++) {
    seeded.push(await saveFakeScan(app.db, { host: `above${i}.test`, score: Math.min(100, own + i), vertical: i % 2 ? 'pets' : 'beauty' }));
    seeded.push(await saveFakeScan(app.db, { host: `below${i}.test`, score: Math.max(0, own - i), vertical: i % 2 ? 'pets' : 'beauty' }));
  }
  const middle = (await scan(app, urlOf(shop))).body as ScanResult;
  assert.deepEqual(
    middle.neighbors.map((n) => [n.host, n.is_self]),
    [['above2.test', false], ['above1.test', false], [middle.host, true], ['below1.test', false], ['below2.test', false]],
  );
  assert.deepEqual(middle.neighbors.map((n) => n.rank), [5, 6, 7, 8, 9]);

  const pets = (await scan(app, `${urlOf(shop)}&vertical=pets`)).body as ScanResult;
  assert.equal(pets.vertical, null, 'ranked among pets, but a listed store keeps its own vertical (none here)');
  assert.deepEqual(
    pets.neighbors.map((n) => n.host),
    ['above3.test', 'above1.test', pets.host, 'below1.test', 'below3.test'],
  );

  // Bottom and top of the index.
  const low = await startApp(t);
  await saveFakeScan(low.db, { host: 'a.test', score: 100 });
  await saveFakeScan(low.db, { host: 'b.test', score: 99 });
  await saveFakeScan(low.db, { host: 'c.test', score: 98 });
  const bottom = (await scan(low, urlOf(shop))).body as ScanResult;
  assert.deepEqual(bottom.neighbors.map((n) => n.host), ['b.test', 'c.test', bottom.host]);
  assert.deepEqual(bottom.neighbors.map((n) => n.rank), [2, 3, 4]);
  const high = await startApp(t);
  await saveFakeScan(high.db, { host: 'z.test', score: 0 });
  const top = (await scan(high, urlOf(shop))).body as ScanResult;
  assert.deepEqual(top.neighbors.map((n) => [n.rank, n.host]), [[1, top.host], [2, 'z.test']]);
});

test('the vertical is validated against the documented list, and kept with the host', async (t) => {
  const app = await startApp(t);
  const shop = await store(t);
  for (const prefix of ['/api/v1', '/api']) {
    const res = await getJson(`${app.url}${prefix}/scan?${urlOf(shop)}&vertical=spaceships`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'INVALID_PARAMS');
    assert.match(res.body.message, /apparel, beauty, electronics/);
  }
  await scan(app, `${urlOf(shop)}&vertical=toys_games`);
  const again = (await scan(app, urlOf(shop))).body as ScanResult;
  assert.equal(again.vertical, 'toys_games');
});

test('host identity: www., case and the default port name one index entry', async (t) => {
  // The same store reached by different spellings of its host through an injected resolver.
  const shop = await store(t);
  const lookup = (_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
    cb(null, [{ address: '127.0.0.1', family: 4 }]);
  const app2 = await startApp(t, {}, { scanOverrides: { lookup } });
  const a = await scan(app2, `url=${encodeURIComponent(`http://www.Shop.test:${shop.port}/`)}`);
  const b = await scan(app2, `url=${encodeURIComponent(`http://shop.test:${shop.port}`)}`);
  assert.equal(a.status, 200, JSON.stringify(a.body));
  assert.equal(a.body.host, `shop.test:${shop.port}`);
  assert.equal(b.body.host, `shop.test:${shop.port}`);
  assert.equal(await app2.db.countStores(), 1);
});

test('errors: MISSING_URL, INVALID_URL and friends, JSON on both prefixes, nothing stored', async (t) => {
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' });
  const cases: [string, number, string][] = [
    ['', 400, 'MISSING_URL'],
    ['url=', 400, 'MISSING_URL'],
    ['url[$gt]=', 400, 'MISSING_URL'],
    ['url=a.test&url=b.test', 400, 'INVALID_URL'],
    [`url=${encodeURIComponent('ftp://shop.test/')}`, 400, 'INVALID_URL'],
    [`url=${encodeURIComponent('http://user:pass@shop.test/')}`, 400, 'INVALID_URL'],
    [`url=${encodeURIComponent('http://127.0.0.1/')}`, 400, 'INVALID_URL'],
    [`url=${encodeURIComponent(`https://shop.test/${'a'.repeat(4096)}`)}`, 400, 'INVALID_URL'],
  ];
  for (const prefix of ['/api/v1', '/api']) {
    for (const [query, status, code] of cases) {
      const res = await getJson(`${app.url}${prefix}/scan?${query}`);
      assert.equal(res.status, status, `${prefix} ${query.slice(0, 60)}`);
      assert.equal(res.body.code, code, query.slice(0, 60));
      assert.equal(res.body.error, res.body.message);
    }
  }
  const missing = await getJson(`${app.url}/api/v1/scan`);
  assert.equal(missing.body.next_action.endpoint, '/api/v1/scan');
  assert.equal(await app.db.countStores(), 0);
});

test('an unreachable store is 502 STORE_UNREACHABLE and stores nothing', async (t) => {
  const app = await startApp(t);
  const shop = await store(t);
  await shop.close();
  const res = await scan(app, urlOf(shop));
  assert.equal(res.status, 502);
  assert.equal(res.body.code, 'STORE_UNREACHABLE');
  assert.equal(await app.db.countStores(), 0);
  assert.equal(sequenceOf(await app.db.allocateScanId()), 1, 'no id was taken by the failed scan');
});

test('a silent store times out with 504 SCAN_TIMEOUT when the budget is spent, not before; nothing stored', async (t) => {
  const budgetMs = 2000;
  const app = await startApp(t, { SCAN_TIMEOUT_MS: String(budgetMs) });
  const shop = await store(t, silentStore);
  const started = Date.now();
  const res = await scan(app, urlOf(shop));
  const elapsed = Date.now() - started;
  assert.equal(res.status, 504);
  assert.equal(res.body.code, 'SCAN_TIMEOUT');
  assert.ok(elapsed >= budgetMs * 0.95, `answered after ${elapsed} ms, before the budget was spent`);
  assertWithin('504 for a silent store', elapsed, budgetMs); // the store never answers: only the budget ends it
  assert.equal(await app.db.countStores(), 0);
});

test('a client that disconnects mid-scan cancels the scan: the store sees its sockets closed, nothing is stored', async (t) => {
  const app = await startApp(t);
  const shop = await store(t, (origin) => ({ ...brochureStore(origin), '/': { body: '<title>slow</title>', delayMs: 5000 } }));
  const controller = new AbortController();
  const pending = fetch(`${app.url}/api/v1/scan?${urlOf(shop)}`, { signal: controller.signal }).catch(() => null);
  await new Promise((r) => setTimeout(r, 300));
  const before = shop.connections;
  assert.ok(before >= 1, 'the scan had started fetching');
  controller.abort();
  await pending;
  // The scanner's sockets to the store close within a second.
  const deadline = Date.now() + 1000;
  let open = true;
  while (Date.now() < deadline && open) {
    await new Promise((r) => setTimeout(r, 50));
    open = (await openSockets(shop)) > 0;
  }
  assert.equal(open, false, 'the store still has open sockets from the scanner');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await app.db.countStores(), 0);
});

async function openSockets(shop: FixtureStore): Promise<number> {
  return shop.openSockets();
}
