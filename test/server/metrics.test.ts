// GET /metrics: Prometheus text from the app's own registry. After a scan it shows the scan's outcome and
// duration; scans running and queued and SCANNER_BUSY refusals are counted as they happen; the process defaults
// (event-loop lag included) are there. Closed to callers METRICS_ALLOW does not name, whatever X-Forwarded-For says.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call as get, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';
import { connectMcp } from '../helpers/mcp-client.js';

/** The value of one sample line of the exposition, e.g. `store_readiness_scans_total{outcome="ok"}`. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

const slowStore = (delayMs: number) => (origin: string) => {
  const routes = completeStore(origin);
  const home = routes['/'];
  return { ...routes, '/': typeof home === 'function' ? home : { ...home, delayMs } };
};

test('after a scan, /metrics shows its outcome and duration, and the process defaults', async (t) => {
  const shop = await startStoreFrom(completeStore);
  t.after(() => shop.close());
  const app = await startApp(t);
  const before = await get(`${app.url}/metrics`);
  assert.equal(before.status, 200);
  assert.equal(sample(before.text, 'store_readiness_scan_duration_seconds_count{outcome="ok"}'), undefined, 'no scan yet');

  const scan = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(scan.status, 200, scan.text.slice(0, 200));
  const res = await get(`${app.url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  assert.equal(sample(res.text, 'store_readiness_scans_total{outcome="ok"}'), 1);
  assert.equal(sample(res.text, 'store_readiness_scan_duration_seconds_count{outcome="ok"}'), 1);
  const seconds = sample(res.text, 'store_readiness_scan_duration_seconds_sum{outcome="ok"}')!;
  assert.ok(seconds > 0, `scan duration ${seconds} s`);
  assert.equal(sample(res.text, 'store_readiness_scans_running'), 0);
  assert.equal(sample(res.text, 'store_readiness_webhook_oldest_pending_seconds'), 0);
  for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
    assert.ok(sample(res.text, name) !== undefined, `${name} is exported`);
  }
});

test('running scans and SCANNER_BUSY refusals are counted while they happen', async (t) => {
  const slow = await startStoreFrom(slowStore(1500));
  const other = await startStoreFrom(completeStore);
  t.after(() => Promise.all([slow.close(), other.close()]));
  const app = await startApp(t, { SCAN_CONCURRENCY: '1', SCAN_QUEUE: '0' });
  const running = get(`${app.url}/api/v1/scan?url=${encodeURIComponent(slow.url)}`);
  await new Promise((r) => setTimeout(r, 300));
  const busy = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(other.url)}`);
  assert.equal(busy.status, 503);
  assert.equal(busy.body.code, 'SCANNER_BUSY');
  const during = await get(`${app.url}/metrics`);
  assert.equal(sample(during.text, 'store_readiness_scans_running'), 1);
  assert.equal(sample(during.text, 'store_readiness_scanner_busy_total'), 1);
  assert.equal((await running).status, 200);
  const after = await get(`${app.url}/metrics`);
  assert.equal(sample(after.text, 'store_readiness_scans_running'), 0);
});

test('/metrics is closed to callers METRICS_ALLOW does not name, even with a forged X-Forwarded-For', async (t) => {
  const app = await startApp(t, { METRICS_ALLOW: '10.0.0.0/8', TRUST_PROXY: 'true' });
  const res = await get(`${app.url}/metrics`, { headers: { 'x-forwarded-for': '10.1.2.3', accept: 'text/plain' } });
  assert.equal(res.status, 404);
  assert.doesNotMatch(res.text, /store_readiness_|process_cpu/);
});

test('store failures met by a page and by an MCP tool are counted by class and code, as on the API', async (t) => {
  const repo = new SqliteRepo(':memory:');
  const app = await startApp(t, {}, { db: repo });
  // The index page meets SQLite's own error (a 500 page); an MCP tool meets a store it cannot reach (a 503 result).
  repo.countStores = () => Promise.reject(Object.assign(new Error('constraint failed'), { code: 'SQLITE_CONSTRAINT' }));
  repo.latestByHost = () => Promise.reject(new DatabaseUnavailableError('the store is closed'));
  const page = await get(`${app.url}/index`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 500);
  const client = await connectMcp(t, app);
  const called = await client.callTool({ name: 'check_merchant_readiness', arguments: { host: 'shop.example' } });
  assert.equal(called.isError, true);

  const res = await get(`${app.url}/metrics`);
  assert.equal(sample(res.text, 'store_readiness_store_errors_total{class="other",code="SQLITE_CONSTRAINT"}'), 1);
  assert.equal(sample(res.text, 'store_readiness_store_errors_total{class="unavailable",code="none"}'), 1);
});

test('a store failure met by an MCP resource read is counted, as a tool call or an API read counts it', async (t) => {
  const repo = new SqliteRepo(':memory:');
  const app = await startApp(t, {}, { db: repo });
  repo.latestByHost = () => Promise.reject(new DatabaseUnavailableError('the store is closed'));
  const client = await connectMcp(t, app);
  await assert.rejects(client.readResource({ uri: 'readiness://reports/shop.example' }), /-32603/);

  const res = await get(`${app.url}/metrics`);
  assert.equal(sample(res.text, 'store_readiness_store_errors_total{class="unavailable",code="none"}'), 1);
});
