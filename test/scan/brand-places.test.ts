// Brands and codes from the places shops print them: label and value in neighbouring inline elements, rows that
// print several cells on a line, breadcrumbs, the title's opening words linked to their own page; never a
// placeholder and never a brand cut short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../scan/documents/html.js';
import { extractProduct } from '../../scan/products/product.js';
import { rowValue } from '../../scan/products/identifier-labels.js';
import { brandInBreadcrumbs, titlePrefixLinked } from '../../scan/products/brand-text.js';
import { assertLinear } from '../helpers/timing.js';

const page = (body: string, h1 = 'Heavy cotton crew tee') =>
  parsePage(
    `<!doctype html><html lang="en"><head><title>${h1}</title></head><body><nav><a href="/">Home</a></nav><h1>${h1}</h1><p>£12.00</p>${body}</body></html>`,
    'https://shop.example/products/crew-tee',
  );

test('label and value in neighbouring inline elements are two words: "Brand" and "Fruit of the Loom"', () => {
  const p = page('<ul class="specs"><li><span>Brand</span><span>Fruit of the Loom</span></li><li><span>EAN</span><span>5012345678900</span></li></ul>');
  assert.match(p.visibleText, /^Brand Fruit of the Loom$/m);
  const product = extractProduct(p);
  assert.equal(product?.brand?.value, 'Fruit of the Loom');
  assert.equal(product?.gtin?.value, '5012345678900');
  // A word styled in parts stays one word, and a price keeps its parts: cents printed apart are its decimals.
  assert.match(page('<p>i<b>Phone</b> case <span>£</span><span>9</span><sup>99</sup></p>').visibleText, /^iPhone case £9\.99$/m);
  // A definition list reads the same.
  assert.equal(extractProduct(page('<dl><dt>Brand</dt><dd>Fruit of the Loom</dd></dl>'))?.brand?.value, 'Fruit of the Loom');
});

test('a brand is never cut short where a row prints the next cell on its line', () => {
  assert.equal(rowValue('Fruit of the Loom Size: M'), 'Fruit of the Loom');
  assert.equal(rowValue('Dolce & Gabbana Type: Eau de parfum'), 'Dolce & Gabbana');
  assert.equal(rowValue('Acme Item Weight: 5 kg'), 'Acme');
  assert.equal(extractProduct(page('<p>Brand: Fruit of the Loom Size: M Colour: White</p>'))?.brand?.value, 'Fruit of the Loom');
});

test('placeholders are no brand, in rows and in markup', () => {
  for (const word of ['Unbranded', 'Generic', 'N/A']) {
    assert.equal(extractProduct(page(`<table><tr><th>Brand</th><td>${word}</td></tr></table>`))?.brand ?? null, null, word);
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Heavy cotton crew tee","brand":{"@type":"Brand","name":"${word}"},"offers":{"@type":"Offer","price":"12.00","priceCurrency":"GBP"}}</script>`;
    assert.equal(extractProduct(page(ld))?.brand ?? null, null, word);
  }
});

test('a breadcrumb crumb that opens the title is the brand; a category crumb is not', () => {
  const trail = '<nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/c/tees">T-shirts</a></li><li><a href="/c/tees/gildan">Gildan</a></li></ol></nav>';
  assert.equal(extractProduct(page(trail, 'Gildan Heavy Cotton Tee'))?.brand?.value, 'Gildan');
  assert.equal(extractProduct(page(trail, 'Heavy Cotton Tee'))?.brand ?? null, null);
  assert.equal(brandInBreadcrumbs(['Home', 'Tees', 'Gildan Heavy Cotton Tee'], 'Gildan Heavy Cotton Tee'), undefined);
});

test('the title\'s opening words are the brand only when the page links them to a page of their own', () => {
  const links = [{ text: 'Gildan', url: 'https://shop.example/collections/vendors?q=Gildan' }];
  assert.equal(titlePrefixLinked('Gildan Heavy Cotton Tee', links), 'Gildan');
  assert.equal(titlePrefixLinked('Gildan Heavy Cotton Tee', [{ text: 'Gildan', url: 'https://shop.example/sale' }]), undefined);
  assert.equal(titlePrefixLinked('Gildan Heavy Cotton Tee', []), undefined);
  assert.equal(extractProduct(page('<p><a href="/gildan">Gildan</a></p>', 'Gildan Heavy Cotton Tee'))?.brand?.value, 'Gildan');
  assert.equal(extractProduct(page('', 'Gildan Heavy Cotton Tee'))?.brand ?? null, null);
});

test('linear time: inline neighbours, breadcrumbs, long rows and title links', () => {
  const make = (n: number) =>
    `<body><h1>Gildan Tee</h1><nav class="breadcrumbs">${'<a href="/c">Tees</a>'.repeat(n)}</nav>${'<span>Brand</span><span>Fruit</span>'.repeat(n)}${'<a href="/x">Gildan</a>'.repeat(n)}</body>`;
  assertLinear('parsePage + extractProduct with inline neighbours', 50, make, (html) => extractProduct(parsePage(html, 'https://shop.example/p')));
  assertLinear('rowValue on a long row', 200, (n) => `Fruit of the${' Loom of the'.repeat(n)} Size: M`, (s) => rowValue(s));
});
