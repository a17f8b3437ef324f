// get_agent_brief through the real app (GET /api/v1/scan/{scan_id}/brief.md): a markdown file with every part
// for a stored scan, JSON errors for unknown or bad ids, Pro auth, and briefs of real scans of fixture stores.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp, type TestApp } from '../helpers/start-app.js';
import { fakeReport } from '../helpers/scans.js';
import { startFixtureStore, type FixtureStore } from '../helpers/fixture-store.js';
import { CATALOGUE, HOSTILE_NAME, completeStore, hostileStore } from '../fixtures/stores.js';
import { createApiKey } from '../../accounts/keys.js';
import type { ScanResult } from '../../schemas/scan-result.js';

async function proApp(t: Parameters<typeof startApp>[0]): Promise<{ app: TestApp; key: string }> {
  const app = await startApp(t);
  const { key } = await createApiKey(app.db, 'merchant@example.test');
  return { app, key };
}

const brief = (app: TestApp, key: string | null, id: number | string, prefix = '/api/v1') =>
  fetch(`${app.url}${prefix}/scan/${id}/brief.md`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

async function saveReport(app: TestApp, report: ScanResult): Promise<ScanResult> {
  const id = await app.db.allocateScanId();
  const stored = { ...report, scan_id: id, report_url: `${app.config.BASE_URL}/r/${id}` };
  await app.db.saveScan({
    id,
    host: stored.host,
    vertical: null,
    score: stored.score,
    grade: stored.grade,
    capped: stored.capped,
    agentReady: false,
    createdAt: new Date(stored.scanned_at),
    ownerKeyId: null,
    report: stored,
  });
  return stored;
}

/** A stored scan with a failing product check, a sampled product and a fix list. */
function storedScan(): ScanResult {
  const report = fakeReport(1, { host: 'shop.test', score: 64 });
  report.pillars.push({
    id: 'product_data',
    label: 'Product data',
    score: 20,
    max: 30,
    checks: [
      {
        id: 'product_identifiers',
        label: 'GTIN / MPN identifiers',
        status: 'fail',
        points: 0,
        max: 4,
        evidence: 'no gtin, mpn or sku on https://shop.test/products/boots',
        title: 'Add GTIN or MPN + brand',
        why: 'Agents match products across stores by identifiers.',
        hard_block: false,
      },
    ],
  });
  report.top_fixes = [
    {
      check_id: 'product_identifiers',
      title: 'Add GTIN or MPN + brand',
      points: 4,
      how: 'Publish the barcode as `gtin13` (EAN). Keep `sku` as well.',
    },
    ...report.top_fixes,
  ];
  report.products = [
    {
      url: 'https://shop.test/products/boots',
      markup: 'json-ld',
      name: { value: 'Hiking Boots', source: 'json-ld' },
      price: { value: 149, source: 'json-ld' },
      currency: { value: 'EUR', source: 'json-ld' },
      availability: { value: 'InStock', source: 'json-ld' },
      brand: null,
      gtin: null,
      mpn: null,
      sku: null,
      identifiers: [],
      image: null,
      attributes: [],
    },
  ];
  return report;
}

test('a stored scan answers one markdown file with every part of the brief', async (t) => {
  const { app, key } = await proApp(t);
  const scan = await saveReport(app, storedScan());
  for (const prefix of ['/api/v1', '/api']) {
    const res = await brief(app, key, scan.scan_id, prefix);
    assert.equal(res.status, 200, prefix);
    assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `inline; filename="agent-brief-${scan.scan_id}.md"`);
    const md = await res.text();
    assert.match(md, /^# Agent brief: shop\.test\n/);
    assert.match(md, /\*\*Score 64\/100 · grade C\*\*/);
    assert.match(md, new RegExp(`- Scan: ${scan.scan_id}, run `));
    // Fixes in top_fixes order, with steps and the evidence seen.
    assert.ok(md.indexOf('### 1. Add GTIN or MPN + brand (+4 points)') < md.indexOf('### 2. Serve HTTPS with HSTS (+2 points)'));
    assert.match(md, /Seen by the scanner: `no gtin, mpn or sku on https:\/\/shop\.test\/products\/boots`/);
    assert.match(md, /\n1\. Publish the barcode as `gtin13` \(EAN\)\.\n2\. Keep `sku` as well\.\n/);
    // The artifacts and the verify loop.
    assert.match(md, /"name": "Hiking Boots"/);
    assert.match(md, /"gtin13": "TODO: the product's EAN\/UPC barcode/);
    assert.match(md, /### llms\.txt[\s\S]*- \[Hiking Boots\]\(https:\/\/shop\.test\/products\/boots\): 149 EUR/);
    assert.match(md, /### robots\.txt[\s\S]*User-agent: Claude-User\n[\s\S]*Disallow: \/checkout\n[\s\S]*Sitemap: https:\/\/shop\.test\/sitemap\.xml/);
    assert.match(md, /### Attribute map[\s\S]*\| gtin \| \*\*no\*\* \|/);
    assert.ok(md.includes(`"${app.config.BASE_URL}/api/v1/scan?url=https%3A%2F%2Fshop.test%2F"`));
    assert.match(md, /- \[ \] `product_identifiers`: fail → pass \(\+4 points\)/);
  }
});

test('unknown scan ids are 404 SCAN_NOT_FOUND pointing at the scan endpoint; bad ids 400 JSON', async (t) => {
  const { app, key } = await proApp(t);
  const res = await getJson(`${app.url}/api/v1/scan/999/brief.md`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.body.code, 'SCAN_NOT_FOUND');
  assert.equal(res.body.next_action.method, 'GET');
  assert.equal(res.body.next_action.endpoint, '/api/v1/scan');
  for (const bad of ['abc', '0', '-1', '1e3', '%7B%22%24gt%22%3A%22%22%7D']) {
    const r = await getJson(`${app.url}/api/v1/scan/${bad}/brief.md`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.code, 'INVALID_PARAMS');
  }
  const post = await getJson(`${app.url}/api/v1/scan/1/brief.md`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  assert.equal(post.status, 405);
});

test('the brief needs a valid Pro key: 401 UNAUTHORIZED with WWW-Authenticate', async (t) => {
  const { app } = await proApp(t);
  const scan = await saveReport(app, storedScan());
  const revoked = await createApiKey(app.db, 'former@example.test');
  await app.db.revokeApiKey(revoked.record.id, new Date());

  const missing = await getJson(`${app.url}/api/v1/scan/${scan.scan_id}/brief.md`);
  assert.equal(missing.status, 401);
  assert.equal(missing.body.code, 'UNAUTHORIZED');
  assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="store-readiness"');
  const answers = [];
  for (const authorization of ['Bearer srk_wrong', `Bearer ${revoked.key}`, 'Basic dXNlcjpwdw==']) {
    const res = await getJson(`${app.url}/api/v1/scan/${scan.scan_id}/brief.md`, { headers: { authorization } });
    assert.equal(res.status, 401, authorization);
    assert.equal(res.body.code, 'UNAUTHORIZED');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="store-readiness", error="invalid_token"$/);
    answers.push(res.body);
  }
  assert.deepEqual(answers[0], answers[1], 'a revoked key looks exactly like a wrong one');
});

async function fixtureFor(t: TestContext, routesOf: (origin: string) => Record<string, unknown>): Promise<FixtureStore> {
  const store = await startFixtureStore({});
  t.after(() => store.close());
  for (const [path, route] of Object.entries(routesOf(store.origin))) store.setRoute(path, route as never);
  return store;
}

async function scanThenBrief(app: TestApp, key: string, storeUrl: string): Promise<{ scan: ScanResult; md: string }> {
  const scanned = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(storeUrl)}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(scanned.status, 200, JSON.stringify(scanned.body).slice(0, 300));
  const res = await brief(app, key, scanned.body.scan_id);
  assert.equal(res.status, 200);
  return { scan: scanned.body, md: await res.text() };
}

test('the brief of a real scan of the complete fixture store fills the JSON-LD from the page', async (t) => {
  const { app, key } = await proApp(t);
  const store = await fixtureFor(t, completeStore);
  const { scan, md } = await scanThenBrief(app, key, store.url);
  const sampled = CATALOGUE.find((p) => scan.products[0]?.url.endsWith(`/products/${p.slug}`));
  assert.ok(sampled, 'a catalogue product was sampled');
  assert.ok(md.includes(`"name": "${sampled.name}"`));
  assert.ok(md.includes(`"gtin13": "${sampled.gtin13}"`));
  assert.ok(md.includes(`"priceCurrency": "EUR"`));
  assert.ok(md.includes(`- [${sampled.name}](${store.origin}/products/${sampled.slug})`));
  assert.match(md, new RegExp(`Sitemap: ${store.origin.replace(/\./g, '\\.')}/sitemap\\.xml`));
  // Every fix of the scan appears, in order.
  const titles = [...md.matchAll(/^### \d+\. (.+) \(\+\d+ points\)$/gm)].map((m) => m[1]);
  assert.deepEqual(titles, scan.top_fixes.map((f) => f.title.replace(/\.$/, '')));
});

test('the brief of a hostile store keeps its markup inert', async (t) => {
  const { app, key } = await proApp(t);
  const store = await fixtureFor(t, hostileStore);
  const { md } = await scanThenBrief(app, key, store.url);
  const prose = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
  assert.ok(!prose.includes(HOSTILE_NAME), 'the hostile product name appears only as code');
  assert.doesNotMatch(prose, /<script|<img|javascript:alert/i);
  assert.doesNotMatch(md, /\]\(javascript:/i);
});
