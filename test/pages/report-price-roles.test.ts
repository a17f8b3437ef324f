// GET /r/{scan_id}: what agents see says when a price reads as free and when its currency is unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { fakeReport, saveReport } from '../helpers/scans.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { renderReport } from '../../server/report-text.js';

function product(name: string, price: number, currency: string | null): ScanResult['products'][number] {
  return {
    url: `https://shop.test/products/${price}`,
    markup: 'none',
    name: { value: name, source: 'html' },
    price: { value: price, source: 'html' },
    currency: currency === null ? null : { value: currency, source: 'html' },
    availability: { value: 'InStock', source: 'html' },
    brand: null,
    gtin: null,
    mpn: null,
    sku: null,
    identifiers: [],
    image: null,
    attributes: [],
  };
}

test('the report page marks a zero price as read as free and an amount without currency as currency unknown', async (t) => {
  const app = await startApp(t);
  const id = await app.db.allocateScanId();
  await saveReport(app.db, { ...fakeReport(id, { host: 'shop.test', score: 60 }), products: [product('Sample card', 0, 'USD'), product('Kettle', 49, null)] });
  const body = await (await fetch(`${app.url}/r/${id}`)).text();
  assert.match(body, /\$0\.00<\/span> <span class="src">html<\/span> <span class="missing">read as free<\/span>/);
  assert.match(body, />49<\/span> <span class="src">html<\/span> <span class="missing">currency unknown<\/span>/);
  assert.doesNotMatch(body, /no currency/);
});

test('a price left unread because the page\'s prices disagree says why, on the report page and in the command line\'s report', async (t) => {
  const app = await startApp(t);
  const id = await app.db.allocateScanId();
  const why = 'the markup says 64.5, the buy box shows <b>€59.00</b>, and the page shows 64.5 nowhere';
  const unread = { ...product('Ankle boots', 0, 'EUR'), price: null, price_not_read: why };
  await saveReport(app.db, { ...fakeReport(id, { host: 'shop.test', score: 60 }), products: [unread] });
  const body = await (await fetch(`${app.url}/r/${id}`)).text();
  // Store text is escaped: the amount the page printed is shown, never its markup.
  assert.match(body, /<span class="missing">not read<\/span> <span class="src">the markup says 64\.5, the buy box shows &lt;b&gt;€59\.00&lt;\/b&gt;, and the page shows 64\.5 nowhere<\/span>/);
  const report = { ...fakeReport(id, { host: 'shop.test', score: 60 }), products: [unread] };
  assert.match(renderReport(report), /Ankle boots · price not read: the markup says 64\.5/);
});
