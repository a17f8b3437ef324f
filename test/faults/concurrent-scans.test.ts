// docs/security.md F5: duplicate concurrent scans of one store. Calls for one store that arrive while its scan runs
// share that scan (single-flight): one visit to the store, one stored row, the same answer (same scan_id) for
// every caller, and each caller charged one unit of its own quota. A caller that goes away stops waiting, but the
// shared scan goes on while another caller still waits; it is cancelled only when nobody is left. Plus the tie
// concurrency makes likely: two scans of one host that started in the same millisecond.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startApp, type TestApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureRoute, type FixtureStore } from '../helpers/fixture-store.js';
import { brochureStore } from '../fixtures/stores.js';
import { createApiKey } from '../../accounts/keys.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { waitFor } from '../helpers/wait-for.js';
import { sequenceOf } from '../../lib/scan-ids.js';

// The home page answers after HOME_DELAY_MS, so the scan is still running when the other calls arrive: they reach
// the service within a few milliseconds of each other, far less than this.
const HOME_DELAY_MS = 1000;

/** The brochure store, its home page slow to answer. */
function slowBrochure(origin: string) {
  const routes = brochureStore(origin);
  return { ...routes, '/': { ...(routes['/'] as FixtureRoute), delayMs: HOME_DELAY_MS } };
}

async function slowStore(t: { after(fn: () => unknown): void }): Promise<FixtureStore> {
  const shop = await startStoreFrom(slowBrochure);
  t.after(() => shop.close());
  return shop;
}

const scanUrl = (app: TestApp, shop: FixtureStore, query = '') => `${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}${query}`;

/** `name`'s remaining count in a RateLimit header ("scan"; r=4; t=…, "pro-30d"; r=9; t=…). */
function remaining(header: string | null, name: string): number {
  const item = (header ?? '').split(/,\s*/).find((i) => i.startsWith(`"${name}"`));
  assert.ok(item, `${name} in ${header}`);
  return Number(/;\s*r=(\d+)/.exec(item)?.[1]);
}

test('F5: 5 concurrent scans of one store with 5 Pro keys share one scan: the store visited once, one id, one row, each key charged one unit', async (t) => {
  const app = await startApp(t, { PRO_SCANS_PER_HOUR: '10', PRO_SCANS_PER_30_DAYS: '100' });
  const shop = await slowStore(t);
  const keys = await Promise.all(Array.from({ length: 5 }, (_, i) => createApiKey(app.db, `f5-${i}@shop.test`)));
  const answers = await Promise.all(keys.map(({ key }) => call(scanUrl(app, shop), { headers: { authorization: `Bearer ${key}` } })));
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
  const ids = new Set(answers.map((a) => (a.body as ScanResult).scan_id));
  assert.equal(ids.size, 1, `one scan answers every caller, ids ${[...ids]}`);
  for (const a of answers) assert.deepEqual(a.body, answers[0].body, 'the same answer for each caller');
  const sharedHits = shop.hits('/');

  // Each key paid one unit of its own hourly and 30-day quota.
  for (const a of answers) {
    assert.equal(remaining(a.headers.get('ratelimit'), 'scan'), 9);
    assert.equal(remaining(a.headers.get('ratelimit'), 'pro-30d'), 99);
  }

  // What one scan alone costs the store, measured now: the five shared calls cost exactly that.
  const solo = await call(scanUrl(app, shop), { headers: { authorization: `Bearer ${keys[0].key}` } });
  assert.equal(solo.status, 200);
  assert.equal(shop.hits('/') - sharedHits, sharedHits, `home page fetched ${sharedHits} times for 5 concurrent calls`);
  t.diagnostic(`home page fetched ${sharedHits} times for 5 concurrent scans, as for one scan alone`);
  assert.notEqual((solo.body as ScanResult).scan_id, answers[0].body.scan_id, 'a later call is a fresh scan');

  // One stored row per scan, each answered by id exactly as it was answered; latest is the newest.
  const first = answers[0].body as ScanResult;
  assert.deepEqual((await call(`${app.url}/api/v1/scan/${first.scan_id}.json`)).body, first);
  assert.deepEqual((await call(`${app.url}/api/v1/scan/${(solo.body as ScanResult).scan_id}.json`)).body, solo.body);
  assert.equal(sequenceOf(await app.db.allocateScanId()), 3, 'two scans took two ids');
  assert.equal((await app.db.latestByHost(first.host))?.scanId, (solo.body as ScanResult).scan_id);
  assert.equal(await app.db.countStores(), 1);
});

test('a joined call costs its caller one unit: two concurrent anonymous calls, one scan, and the quota of 2 is spent', async (t) => {
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '2' });
  const shop = await slowStore(t);
  const [a, b] = await Promise.all([call(scanUrl(app, shop)), call(scanUrl(app, shop))]);
  assert.deepEqual([a.status, b.status], [200, 200]);
  assert.equal(a.body.scan_id, b.body.scan_id);
  assert.deepEqual([remaining(a.headers.get('ratelimit'), 'scan'), remaining(b.headers.get('ratelimit'), 'scan')].sort(), [0, 1]);
  const third = await call(scanUrl(app, shop));
  assert.equal(third.status, 429);
  assert.equal(third.body.code, 'RATE_LIMITED');
});

test('a different vertical or another store is a scan of its own, not a joined one', async (t) => {
  const app = await startApp(t);
  const shop = await slowStore(t);
  const other = await slowStore(t);
  const [plain, pets, elsewhere] = await Promise.all([
    call(scanUrl(app, shop)),
    call(scanUrl(app, shop, '&vertical=pets')),
    call(scanUrl(app, other)),
  ]);
  assert.deepEqual([plain.status, pets.status, elsewhere.status], [200, 200, 200]);
  assert.equal(new Set([plain.body.scan_id, pets.body.scan_id, elsewhere.body.scan_id]).size, 3);
});

test('a caller that goes away does not cancel the scan another caller waits for; when every caller is gone it is cancelled', async (t) => {
  const app = await startApp(t);
  const shop = await slowStore(t);
  const leaving = new AbortController();
  const left = fetch(scanUrl(app, shop), { signal: leaving.signal }).then(
    () => 'answered',
    () => 'aborted',
  );
  await waitFor(() => shop.hits('/') >= 1, 'the scan reached the store');
  const staying = call(scanUrl(app, shop));
  await new Promise((r) => setTimeout(r, HOME_DELAY_MS / 10)); // the second call has joined meanwhile
  leaving.abort();
  assert.equal(await left, 'aborted');
  const answer = await staying;
  assert.equal(answer.status, 200, answer.text.slice(0, 200));
  assert.deepEqual((await call(`${app.url}/api/v1/scan/${answer.body.scan_id}.json`)).body, answer.body, 'the shared scan was stored');

  // Both callers leave: the shared scan stops, its sockets to the store close and nothing is stored.
  const stored = await app.db.countStores();
  const controllers = [new AbortController(), new AbortController()];
  const pending = controllers.map((c) => fetch(scanUrl(app, shop, '&vertical=pets'), { signal: c.signal }).catch(() => null));
  const hits = shop.hits('/');
  await waitFor(() => shop.hits('/') > hits, 'the second scan reached the store');
  for (const c of controllers) c.abort();
  await Promise.all(pending);
  await waitFor(() => shop.openSockets() === 0, 'the scanner closed its sockets to the store');
  await new Promise((r) => setTimeout(r, HOME_DELAY_MS * 2)); // past the moment the home page would have answered
  assert.equal(await app.db.countStores(), stored);
  assert.equal(sequenceOf(await app.db.allocateScanId()), 2, 'the cancelled scan stored nothing and took no id');
});


// Two scans of one host in the same millisecond: latest must be the one a relist would rebuild (the higher id),
// so the public index does not change on a relist.
test(
  'two scans of one host started in the same millisecond: latest is the same before and after a delist + relist',
  async () => {
    const repo = new SqliteRepo(':memory:');
    await repo.init();
    const at = new Date('2026-11-01T00:00:00Z');
    const first = await repo.allocateScanId();
    const second = await repo.allocateScanId();
    const scan = (id: number, score: number) => ({ id, host: 'tie.test', vertical: null, score, grade: 'C', capped: false, agentReady: false, createdAt: at, ownerKeyId: null, report: { id } });
    await repo.saveScan(scan(second, 60)); // the later id finishes first …
    await repo.saveScan(scan(first, 50)); // … and the earlier one is saved after it
    const before = (await repo.latestByHost('tie.test'))?.scanId;
    await repo.setDelisted('tie.test', true);
    await repo.setDelisted('tie.test', false);
    const after = (await repo.latestByHost('tie.test'))?.scanId;
    await repo.close();
    assert.equal(before, after, `latest was ${before}, after a relist ${after}`);
  },
);
