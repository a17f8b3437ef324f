// What an app keeps between calls (tools/app-state.ts) is its own: two apps in one process, with different scan
// bounds, share no scan place, no running scan and no cached answer.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startApp, type TestApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureRoute } from '../helpers/fixture-store.js';
import { brochureStore } from '../fixtures/stores.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { waitFor } from '../helpers/wait-for.js';

// The slow home page keeps the first scan running while the next calls arrive (a few ms after it starts).
const SLOW_MS = 1500;

const scan = (app: TestApp, url: string) => call(`${app.url}/api/v1/scan?url=${encodeURIComponent(url)}`);


test('two apps in one process share no scan place, no running scan and no cache', async (t) => {
  const one = await startApp(t, { SCAN_CONCURRENCY: '1', SCAN_QUEUE: '0' });
  const two = await startApp(t, { SCAN_CONCURRENCY: '2', SCAN_QUEUE: '0' });
  const shop = await startStoreFrom((origin) => {
    const routes = brochureStore(origin);
    return { ...routes, '/': { ...(routes['/'] as FixtureRoute), delayMs: SLOW_MS } };
  });
  t.after(() => shop.close());

  const first = scan(one, shop.url);
  await waitFor(() => one.state.scanFlights.size === 1, 'the first scan started');
  assert.deepEqual(one.state.scanGate.load, { running: 1, waiting: 0 });
  assert.deepEqual(two.state.scanGate.load, { running: 0, waiting: 0 }, 'the other app holds no place');
  assert.equal(one.state.scanFlights.size, 1);
  assert.equal(two.state.scanFlights.size, 0, 'the other app runs no scan');

  // The first app's only place is taken: another store is refused there, while the second app runs two scans at
  // once, one of them of the very URL the first app is scanning (its own scan, not a join across apps).
  const busy = await scan(one, `${shop.origin}/other`);
  assert.equal(busy.status, 503);
  assert.equal(busy.body.code, 'SCANNER_BUSY');
  const [same, other] = await Promise.all([scan(two, shop.url), scan(two, `${shop.origin}/other`)]);
  assert.equal(same.status, 200, JSON.stringify(same.body).slice(0, 300));
  assert.equal(other.status, 200, JSON.stringify(other.body).slice(0, 300));
  assert.equal((await first).status, 200);
  // A scan joined across apps would be saved in the first app's store only.
  assert.equal((await two.db.latestByHost(same.body.host))?.scanId, same.body.scan_id, 'the second app saved its own scan');

  // A cached read of one app is not the other's.
  const client = await connectMcp(t, one);
  const read = await client.callTool({ name: 'check_merchant_readiness', arguments: { host: same.body.host } });
  assert.equal(read.isError, undefined);
  assert.equal(one.state.protocolsByScan.size, 1);
  assert.equal(two.state.protocolsByScan.size, 0);
});
