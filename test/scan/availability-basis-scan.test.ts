// Where stock read from a page body came from, end to end: plain product pages on a loopback store scanned through
// GET /api/v1/scan. A buy button, or a price with no stock warning, makes an agent assume "in stock" while the page
// states nothing about stock; the check's evidence, the text report and the report page say it was guessed, and
// only stock wording on the page is called "stated in the page text".
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { renderReport } from '../../server/report-text.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import type { CheckId } from '../../scan/checks/rubric.js';

const evidence = (r: ScanResult, id: CheckId) => r.pillars.flatMap((p) => p.checks).find((c) => c.id === id)?.evidence ?? '';

function productPage(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Sample card</title></head><body>
<h1>Sample card</h1><p>A printed sample card of our paper range.</p>${body}
</body></html>`;
}
const BUY_FORM = '<form action="/cart/add" method="post"><input type="hidden" name="id" value="s1"><button type="submit">Buy now</button></form>';

async function scanProduct(t: TestContext, body: string): Promise<{ result: ScanResult; reportHtml: string }> {
  const app = await startApp(t);
  const store = await startStoreFrom(() => ({
    '/': { body: '<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1><a href="/products/sample-card">Sample card</a></body></html>' },
    '/products/sample-card': { body: productPage(body) },
  }));
  t.after(() => store.close());
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const result = res.body as ScanResult;
  const page = await fetch(`${app.url}/r/${result.scan_id}`);
  assert.equal(page.status, 200);
  return { result, reportHtml: await page.text() };
}

/** The text of the report's availability cell, tags stripped. */
function availabilityCell(reportHtml: string): string {
  const cell = /<td data-label="Availability">([\s\S]*?)<\/td>/.exec(reportHtml)?.[1] ?? '';
  return cell.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

test('in stock guessed from a buy button is reported as a guess, never as the page text saying so', async (t) => {
  const { result, reportHtml } = await scanProduct(t, `<p class="price">$12.00</p>${BUY_FORM}`);
  assert.deepEqual(result.products[0].availability, { value: 'InStock', source: 'html' });
  assert.equal(result.products[0].availability_basis, 'buy_button');
  const seen = evidence(result, 'product_availability');
  assert.match(seen, /"InStock" only guessed from a buy button; the page states no stock/);
  assert.doesNotMatch(seen, /visible text|stated in the page text/);
  assert.match(renderReport(result), /Sample card · 12 USD · InStock, guessed from a buy button \(none\)/);
  assert.equal(availabilityCell(reportHtml), 'InStock html guessed from a buy button');
});

test('in stock guessed from a price with no stock warning says so', async (t) => {
  const { result, reportHtml } = await scanProduct(t, '<p class="price">$12.00</p>');
  assert.equal(result.products[0].availability?.value, 'InStock');
  assert.equal(result.products[0].availability_basis, 'price');
  assert.match(evidence(result, 'product_availability'), /only guessed from a price shown without a stock warning; the page states no stock/);
  assert.equal(availabilityCell(reportHtml), 'InStock html guessed from a price shown without a stock warning');
});

test('stock wording on the page is reported as stated in the page text, even beside a buy button', async (t) => {
  const { result, reportHtml } = await scanProduct(t, `<p class="price">$12.00</p><p>Sold out</p>${BUY_FORM}`);
  assert.deepEqual(result.products[0].availability, { value: 'OutOfStock', source: 'html' });
  assert.equal(result.products[0].availability_basis, 'text');
  assert.match(evidence(result, 'product_availability'), /no availability in the markup \(only "OutOfStock" stated in the page text\)/);
  assert.equal(availabilityCell(reportHtml), 'OutOfStock html stated in the page text');
});

test('availability from markup carries no basis', async (t) => {
  const ld = { '@context': 'https://schema.org', '@type': 'Product', name: 'Sample card', offers: { '@type': 'Offer', price: '12.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' } };
  const { result, reportHtml } = await scanProduct(t, `<script type="application/ld+json">${JSON.stringify(ld)}</script><p class="price">$12.00</p>${BUY_FORM}`);
  assert.deepEqual(result.products[0].availability, { value: 'InStock', source: 'json-ld' });
  assert.equal(result.products[0].availability_basis, undefined);
  assert.equal(availabilityCell(reportHtml), 'InStock json-ld');
});
