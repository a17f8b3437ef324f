// Price roles end to end: plain product pages on a loopback store scanned through GET /api/v1/scan. A zero price is
// reported as zero with its consequence named, a bare amount in the page's price element is the price with its
// currency unknown, a monthly price carries its period and an ex-VAT price stands beside the one including VAT.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { renderReport } from '../../server/report-text.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import type { CheckId } from '../../scan/checks/rubric.js';

const check = (r: ScanResult, id: CheckId) => r.pillars.flatMap((p) => p.checks).find((c) => c.id === id) as { status: string; evidence?: string };

function productPage(priceHtml: string): string {
  return `<!doctype html><html lang="en"><head><title>Sample card</title></head><body>
<h1>Sample card</h1><p>A printed sample card of our paper range.</p>${priceHtml}
<form action="/cart/add" method="post"><input type="hidden" name="id" value="s1"><button type="submit">Add to cart</button></form>
</body></html>`;
}

async function scanProduct(t: TestContext, priceHtml: string): Promise<ScanResult> {
  const app = await startApp(t);
  const store = await startStoreFrom(() => ({
    '/': { body: '<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1><a href="/products/sample-card">Sample card</a></body></html>' },
    '/products/sample-card': { body: productPage(priceHtml) },
  }));
  t.after(() => store.close());
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as ScanResult;
}

test('a zero price is reported as zero, and the price check says agents read the item as free', async (t) => {
  const result = await scanProduct(t, '<p class="price">$0.00</p>');
  assert.equal(result.products.length, 1);
  assert.deepEqual(result.products[0].price, { value: 0, source: 'html' });
  assert.equal(result.products[0].currency?.value, 'USD');
  assert.match(check(result, 'product_price').evidence ?? '', /agents read this item as free/);
  assert.match(renderReport(result), /Sample card · 0 USD \(read as free\)/);
});

test('a bare amount in the price element is the price, with the currency unknown', async (t) => {
  const result = await scanProduct(t, '<div class="product-price">49,00</div>');
  assert.equal(result.products.length, 1);
  assert.deepEqual(result.products[0].price, { value: 49, source: 'html' });
  assert.equal(result.products[0].currency, null);
  assert.match(renderReport(result), /Sample card · 49 \(currency unknown\)/);
});

test('a price per month is reported with its period, and a price excluding VAT beside the one including it', async (t) => {
  const monthly = await scanProduct(t, '<p class="price">$9.99/mo</p>');
  assert.deepEqual(monthly.products[0].price, { value: 9.99, source: 'html' });
  assert.deepEqual(monthly.products[0].price_period, { value: 'month', source: 'html' });
  assert.match(renderReport(monthly), /Sample card · 9\.99 USD per month/);
  const taxed = await scanProduct(t, '<p class="price">£120.00 inc. VAT</p><p>£100.00 ex. VAT</p>');
  assert.deepEqual(taxed.products[0].price, { value: 120, source: 'html' });
  assert.deepEqual(taxed.products[0].price_excl_tax, { value: 100, source: 'html' });
  assert.equal(taxed.products[0].price_period, undefined);
});
