// Cross-site browser requests cannot start scans: an <img> or a form on another site pointing at the scan
// endpoint (Sec-Fetch-Site: cross-site, or a foreign Origin) is a 403 JSON before any work or quota. Clients that
// send neither header are unaffected, and reads (REST, MCP) stay open to every site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call as get, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { postMcp } from '../helpers/mcp-client.js';
import { completeStore } from '../fixtures/stores.js';
import { saveFakeScan } from '../helpers/scans.js';

test('GET /api/v1/scan and /api/scan refuse cross-site browsers with 403 before any work or quota', async (t) => {
  const shop = await startStoreFrom(completeStore);
  t.after(() => shop.close());
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '1' });
  const seeded = await saveFakeScan(app.db, { host: 'seeded.test', score: 70 });
  const q = `url=${encodeURIComponent(shop.url)}`;
  const hostile: Record<string, string>[] = [
    // What an <img src="…/api/v1/scan?url=…"> on another site sends.
    { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
    // The same <img> on a sibling subdomain (shop.example beside readiness.example's parent domain).
    { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
    { origin: 'https://attacker.example' },
    { origin: 'null' }, // a sandboxed frame or a file: page, from a browser that does not say where it is
    { origin: `${app.url}.attacker.example` },
    { 'sec-fetch-site': 'cross-site', origin: app.url },
  ];
  for (const prefix of ['/api/v1', '/api']) {
    for (const headers of hostile) {
      const res = await get(`${app.url}${prefix}/scan?${q}`, { headers });
      assert.equal(res.status, 403, `${prefix} ${JSON.stringify(headers)}: ${res.text.slice(0, 200)}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.body.code, 'CROSS_SITE_REFUSED');
      assert.match(res.body.message, /another site/);
    }
  }
  assert.equal(shop.requests.length, 0, 'the store was never contacted');
  assert.equal(await app.db.countStores(), 1, 'nothing stored');

  // Reads stay open to other sites: a stored report, and MCP without an Origin.
  const read = await get(`${app.url}/api/v1/scan/${seeded.scan_id}.json`, { headers: { 'sec-fetch-site': 'cross-site' } });
  assert.equal(read.status, 200);
  const mcp = await postMcp(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' });
  assert.equal(mcp.status, 200);
  assert.ok(Array.isArray(mcp.body.result?.tools));

  // The hour's one scan is still there for a same-site browser; a non-browser client then meets the spent quota.
  const own = await get(`${app.url}/api/v1/scan?${q}`, { headers: { 'sec-fetch-site': 'same-origin', origin: app.url } });
  assert.equal(own.status, 200, own.text.slice(0, 200));
  const plain = await get(`${app.url}/api/v1/scan?${q}`);
  assert.equal(plain.status, 429, 'a client without browser headers is judged by the limiter alone');
});

test('clients without browser headers scan as before; same-origin and BASE_URL origins are accepted', async (t) => {
  const shop = await startStoreFrom(completeStore);
  t.after(() => shop.close());
  const app = await startApp(t, { BASE_URL: 'https://readiness.example' });
  const q = `url=${encodeURIComponent(shop.url)}`;
  const accepted: Record<string, string>[] = [
    {},
    { origin: 'https://readiness.example' },
    { 'sec-fetch-site': 'none' },
    { 'sec-fetch-site': 'same-origin', origin: 'null' }, // our own form: the home page's Referrer-Policy is no-referrer
  ];
  for (const headers of accepted) {
    const res = await get(`${app.url}/api/v1/scan?${q}`, { headers });
    assert.equal(res.status, 200, `${JSON.stringify(headers)}: ${res.text.slice(0, 200)}`);
  }
});
