// A bounded scanner: at most SCAN_CONCURRENCY scans run and SCAN_QUEUE wait; past that a scan call is a 503
// SCANNER_BUSY with Retry-After, before any quota is counted, with nothing fetched and nothing stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call as get, startApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';

/** The complete store, its homepage answering after `delayMs`, so scans overlap. */
const slowStore = (delayMs: number) => (origin: string) => {
  const routes = completeStore(origin);
  const home = routes['/'];
  return { ...routes, '/': typeof home === 'function' ? home : { ...home, delayMs } };
};

test('past SCAN_CONCURRENCY + SCAN_QUEUE, scan calls are 503 SCANNER_BUSY with Retry-After; nothing spent or stored', async (t) => {
  const stores: FixtureStore[] = [];
  for (let i = 0; i < 5; i++) stores.push(await startStoreFrom(slowStore(1500)));
  t.after(() => Promise.all(stores.map((s) => s.close())));
  const app = await startApp(t, { SCAN_CONCURRENCY: '1', SCAN_QUEUE: '1', ANON_SCANS_PER_HOUR: '3' });

  const answers = await Promise.all(stores.map((s) => get(`${app.url}/api/v1/scan?url=${encodeURIComponent(s.url)}`)));
  const ok = answers.filter((a) => a.status === 200);
  const busy = answers.filter((a) => a.status === 503);
  assert.equal(ok.length, 2, answers.map((a) => `${a.status} ${a.text.slice(0, 80)}`).join('\n'));
  assert.equal(busy.length, 3);
  for (const res of busy) {
    assert.equal(res.body.code, 'SCANNER_BUSY');
    assert.match(res.body.message, /at capacity.*Nothing was scanned, stored or counted/);
    assert.ok(Number(res.headers.get('retry-after')) > 0, 'Retry-After');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  }
  // Only the two admitted scans reached a store and were stored, and only they were counted (3 per hour).
  const visited = stores.filter((s) => s.requests.length > 0);
  assert.equal(visited.length, 2);
  assert.equal(await app.db.countStores(), 2);
  assert.match(answers.find((a) => a.status === 503)!.headers.get('ratelimit') ?? '', /"scan"; r=\d+;/);
  const third = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(stores.find((s) => s.requests.length === 0)!.url)}`);
  assert.equal(third.status, 200, 'the third unit of the hour was not spent by the refusals');
  const fourth = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(stores[0].url)}`);
  assert.equal(fourth.status, 429);
});

test('calls joining a running scan of the same store take no place; the home-page form is bounded too', async (t) => {
  const shop = await startStoreFrom(slowStore(1500));
  const other = await startStoreFrom(slowStore(1500));
  t.after(() => Promise.all([shop.close(), other.close()]));
  const app = await startApp(t, { SCAN_CONCURRENCY: '1', SCAN_QUEUE: '0' });
  const url = `${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`;
  const first = get(url);
  await new Promise((r) => setTimeout(r, 300));
  const [same, form] = await Promise.all([
    get(url),
    get(`${app.url}/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ url: other.url }).toString(),
    }),
  ]);
  const a = await first;
  assert.equal(a.status, 200);
  assert.equal(same.status, 200, 'joined the running scan');
  assert.equal(same.body.scan_id, a.body.scan_id);
  assert.equal(form.status, 503);
  assert.ok(Number(form.headers.get('retry-after')) > 0);
  assert.match(form.text, /The scanner is busy right now/);
  assert.equal(other.requests.length, 0);
  // The place is free again once the scan is done.
  const after = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(other.url)}`);
  assert.equal(after.status, 200);
});
