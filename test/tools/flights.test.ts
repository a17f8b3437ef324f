// Which scans share a running scan, and what a scan may change in the index: only scans of the same normalised
// URL share one, so a root scan started while a page of the store is being scanned gets a root result; a monitor's
// scheduled scan never waits on a stranger's; and no scan sets the vertical of a store already listed.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { call, startApp, type TestApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureRoute, type FixtureStore } from '../helpers/fixture-store.js';
import { brochureStore } from '../fixtures/stores.js';
import { monitorScan } from '../../server/monitoring.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { waitFor } from '../helpers/wait-for.js';

// The slow answer keeps a scan running while the next call arrives (a few ms later): far longer than that gap.
const SLOW_MS = 1000;

const scanUrl = (app: TestApp, url: string, query = '') => `${app.url}/api/v1/scan?url=${encodeURIComponent(url)}${query}`;


async function shopWith(t: { after(fn: () => unknown): void }, extra: (routes: ReturnType<typeof brochureStore>) => Record<string, FixtureRoute>) {
  const shop = await startStoreFrom((origin) => {
    const routes = brochureStore(origin);
    return { ...routes, ...extra(routes) };
  });
  t.after(() => shop.close());
  return shop;
}

test('a root scan started while a scan of /slowpage of the same store runs gets a root result of its own', async (t) => {
  const app = await startApp(t);
  const shop: FixtureStore = await shopWith(t, (routes) => ({ '/slowpage': { ...(routes['/'] as FixtureRoute), delayMs: SLOW_MS } }));
  const page = call(scanUrl(app, `${shop.origin}/slowpage`));
  await waitFor(() => shop.hits('/slowpage') >= 1, 'the page scan reached the store');
  const root = await call(scanUrl(app, shop.url));
  const pageScan = await page;
  assert.equal(root.status, 200, JSON.stringify(root.body).slice(0, 300));
  assert.equal(pageScan.status, 200);
  const rootResult = root.body as ScanResult;
  assert.equal(rootResult.url, shop.url);
  assert.equal(rootResult.public_entry, true);
  assert.notEqual(rootResult.scan_id, (pageScan.body as ScanResult).scan_id);
  assert.equal((pageScan.body as ScanResult).public_entry, false);
  assert.equal((await app.db.latestByHost(rootResult.host))?.scanId, rootResult.scan_id);
});

test("a monitor's scheduled scan never joins a stranger's running scan of the same URL", async (t) => {
  const app = await startApp(t);
  const shop = await shopWith(t, (routes) => ({ '/': { ...(routes['/'] as FixtureRoute), delayMs: SLOW_MS } }));
  const stranger = call(scanUrl(app, shop.url));
  await waitFor(() => shop.hits('/') >= 1, "the stranger's scan reached the store");
  const scheduled = monitorScan({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }) });
  const mine = await scheduled({ origin: shop.origin, host: `127.0.0.1:${shop.port}`, accountId: 'acct_owner' });
  const theirs = await stranger;
  assert.ok('scanId' in mine, JSON.stringify(mine));
  assert.notEqual(mine.scanId, (theirs.body as ScanResult).scan_id, 'the monitor ran its own scan');
  assert.ok(await app.db.getScan(mine.scanId), 'its scan is stored');
});

test('an anonymous scan naming a vertical does not set the vertical of a listed store that has none', async (t) => {
  const app = await startApp(t);
  const shop = await shopWith(t, () => ({}));
  const listed = await call(scanUrl(app, shop.url));
  assert.equal(listed.status, 200);
  const host = (listed.body as ScanResult).host;
  assert.equal((await app.db.latestByHost(host))?.vertical, null);
  const naming = await call(scanUrl(app, shop.url, '&vertical=apparel'));
  assert.equal(naming.status, 200);
  assert.equal((naming.body as ScanResult).vertical, null, 'the answer shows the kept vertical');
  assert.equal((await app.db.latestByHost(host))?.vertical, null, 'the listing kept none');
  assert.equal(await app.db.countStores('apparel'), 0);
});
