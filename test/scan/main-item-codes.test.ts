// The codes of the page's item, not of a variant or a recommended item: data attributes of unchosen options,
// swatches and recommendation cards are not the item's, and a variant's code counts only where the item has none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../scan/documents/html.js';
import { attributeCodes } from '../../scan/products/attribute-codes.js';
import { extractProduct } from '../../scan/products/product.js';
import { assertLinear } from '../helpers/timing.js';

const page = (body: string) =>
  parsePage(
    `<!doctype html><html lang="en"><head><title>Crew tee</title></head><body><h1>Crew tee</h1><p>£12.00</p>${body}</body></html>`,
    'https://shop.example/products/crew-tee',
  );

test('the item\'s own code wins over the codes of its variants and of recommended items', () => {
  const p = page(`<select name="size"><option data-sku="TEE-S">S</option><option data-sku="TEE-M" selected>M</option></select>
<div class="swatch" data-sku="TEE-RED"></div><div data-variant-sku="TEE-BLUE-M"></div>
<div class="product" data-product-sku="TEE-100" data-ean="5012345678900"></div>
<section class="related-products"><div data-product-sku="CAP-9" data-mpn="CAP-MPN"></div></section>`);
  assert.deepEqual(attributeCodes(p), { sku: 'TEE-100', gtin: '5012345678900' });
  assert.equal(extractProduct(p)?.sku?.value, 'TEE-100');
});

test('a variant\'s code is read where the item shows no other; the chosen option is the item\'s', () => {
  assert.deepEqual(attributeCodes(page('<div data-variant-sku="TEE-BLUE-M"></div>')), { sku: 'TEE-BLUE-M' });
  assert.deepEqual(attributeCodes(page('<select><option data-sku="TEE-S">S</option><option data-sku="TEE-M" selected>M</option></select>')), { sku: 'TEE-M' });
  assert.deepEqual(attributeCodes(page('<div class="recommendations"><div data-sku="CAP-9"></div></div>')), {});
});

test('linear time: codes in aside blocks over a long page', () => {
  const make = (n: number) => `<body><h1>Tee</h1>${'<div class="related-products"><div data-sku="C-1"></div></div><option data-sku="V-2">M</option>'.repeat(n)}</body>`;
  assertLinear('parsePage + attributeCodes with aside codes', 100, make, (html) => attributeCodes(parsePage(html, 'https://shop.example/p')));
});
