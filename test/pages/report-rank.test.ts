// The rank says its scope: a store scanned in a category is "#1 of 1 in Home & garden", with its place in the whole
// index beside it (#3 of 3), on the scan result and on its report.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { brochureStore } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';

test('a category scan states its rank in the category and in the whole index', async (t) => {
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '1' });
  await saveFakeScan(app.db, { host: 'first.example', score: 95, vertical: 'apparel' });
  await saveFakeScan(app.db, { host: 'second.example', score: 90, vertical: 'beauty' });
  const store = await startStoreFrom(brochureStore);
  t.after(() => store.close());
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}&vertical=home_garden`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const report = res.body as ScanResult;
  assert.deepEqual(report.rank, { scope: 'home_garden', position: 1, of: 1, overall: { position: 3, of: 3 } });
  assert.deepEqual(report.neighbors.map((n) => n.rank), [1], 'the neighbors are the category\'s');
  const page = await fetch(`${app.url}/r/${report.scan_id}`).then((r) => r.text());
  assert.match(page, /<p class="rank-line" data-testid="rank"><strong>#1<\/strong> of 1 in Home &amp; garden · <strong>#3<\/strong> of 3 in the whole index<\/p>/);
  assert.match(page, /<th scope="col">Rank in Home &amp; garden<\/th>/);
});
