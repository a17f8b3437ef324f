// Real product pages without any structured data, scanned through GET /api/v1/scan on a loopback store: the page
// is recognised as a product page the way an agent would, "what agents see" carries its visible facts, and the
// checks say "product page without markup" with its URL instead of "no product page found".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { readRealFixture, requireRealFixtures } from '../helpers/artifacts.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import type { CheckId } from '../../scan/checks/rubric.js';

const NO_MARKUP = [
  { file: 'amazon-couk-watch-no-structured-data.html', path: '/CIGA-Design-Automatic-Mechanical-Skeleton/dp/B07C8KMQQ6', price: 220, currency: 'GBP', identifier: { value: 'B07C8KMQQ6', kind: 'asin', source: 'labelled_text' } },
  { file: 'pcstore-tw-no-structured-data.html', path: '/pchome24h/M14876706.htm', price: 2320, currency: 'TWD', identifier: { value: 'M14876706', kind: 'sku', source: 'labelled_text' } },
  { file: 'opencart-vsezaoci-si-no-structured-data.html', path: '/pripomocki/razno/bralne-lece-stick-on', price: 40, currency: 'EUR', identifier: { value: '0638', kind: 'sku', source: 'labelled_text' } },
];

const check = (r: ScanResult, id: CheckId) => r.pillars.flatMap((p) => p.checks).find((c) => c.id === id) as { status: string; evidence?: string };

for (const page of NO_MARKUP) {
  test(`a real page without markup is a product page to the scan: ${page.file}`, async (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const app = await startApp(t);
    // The homepage links the product with a plain link whose address follows no product URL convention.
    const store = await startStoreFrom(() => ({
      '/': { body: `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1><a href="${page.path}">Our product</a></body></html>` },
      [page.path]: { body: readRealFixture(dir, `pages/${page.file}`) },
    }));
    t.after(() => store.close());
    const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = res.body as ScanResult;
    assert.equal(result.products.length, 1);
    const seen = result.products[0];
    assert.equal(seen.url, `${store.origin}${page.path}`);
    assert.equal(seen.markup, 'none');
    assert.deepEqual(seen.price, { value: page.price, source: 'html' });
    assert.equal(seen.currency?.value, page.currency);
    assert.equal(seen.availability?.value, 'InStock');
    // Every identifier agents can match on, with its kind and where it was read.
    assert.ok(seen.identifiers.some((i) => JSON.stringify(i) === JSON.stringify(page.identifier)), JSON.stringify(seen.identifiers));
    assert.ok(seen.name && ['html', 'opengraph'].includes(seen.name.source), JSON.stringify(seen.name)); // no Product markup

    const structured = check(result, 'product_structured_data');
    assert.equal(structured.status, 'fail');
    assert.match(structured.evidence ?? '', /product page without markup/);
    assert.ok(structured.evidence?.includes(`${store.origin}${page.path}`), structured.evidence);
    assert.doesNotMatch(JSON.stringify(result.pillars), /no product page found/);
    assert.equal(check(result, 'product_server_rendered').status, 'pass');
    // The first fix is about markup on the product page, not about finding product pages.
    const fixIds = result.top_fixes.map((f) => f.check_id);
    assert.ok(fixIds.indexOf('product_structured_data') < fixIds.indexOf('discovery_product_urls') || !fixIds.includes('discovery_product_urls'));
  });
}

test('a real business homepage that is not a shop yields no product page', async (t) => {
  const dir = requireRealFixtures(t);
  if (!dir) return;
  const app = await startApp(t);
  const store = await startStoreFrom(() => ({ '/': { body: readRealFixture(dir, 'pages/wordpress-chowhanandsons-homepage-not-a-shop.html') } }));
  t.after(() => store.close());
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200);
  const result = res.body as ScanResult;
  assert.deepEqual(result.products, []);
  assert.match(check(result, 'product_structured_data').evidence ?? '', /no product page found/);
  assert.equal(result.protocols.platform, 'other');
});
