// Product codes kept out of the page's text: data attributes of the product block and hidden inputs of its forms,
// read where neither markup nor a labelled row gives the code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { attributeCodes } from '../../../scan/products/attribute-codes.js';
import { readRealFixture, requireRealFixtures, stripMarkup } from '../../helpers/artifacts.js';
import { assertLinear } from '../../helpers/timing.js';

const page = (body: string) =>
  parsePage(
    `<!doctype html><html lang="en"><head><title>Sample card</title></head><body><h1>Sample card</h1><p>£4.00</p>${body}</body></html>`,
    'https://shop.example/products/sample-card',
  );

test('data attributes and hidden inputs give SKU, GTIN and MPN, each of its own shape', () => {
  const p = page(`<div class="product" data-product-sku="SC-100" data-ean="5012345678900" data-mpn="P-77">
<form action="/cart/add" method="post"><input type="hidden" name="sku" value="SC-999"><button>Add to cart</button></form></div>`);
  assert.deepEqual(attributeCodes(p), { sku: 'SC-100', gtin: '5012345678900', mpn: 'P-77' });
  const product = extractProduct(p);
  assert.equal(product?.sku?.value, 'SC-100');
  assert.equal(product?.gtin?.value, '5012345678900');
  assert.equal(product?.mpn?.value, 'P-77');
  // Hidden inputs of the buy form when no attribute says it.
  const form = page('<form action="/cart/add" method="post"><input type="hidden" name="ean" value="4006381333931"><input type="hidden" name="sku" value="K17"><button>Add to cart</button></form>');
  assert.deepEqual(attributeCodes(form), { sku: 'K17', gtin: '4006381333931' });
});

test('placeholders, sentences and codes of the wrong shape are not codes; a labelled row comes first', () => {
  assert.deepEqual(attributeCodes(page('<div data-sku="{{ product.sku }}" data-ean="12345" data-product-no="see below please"></div>')), {});
  const labelled = extractProduct(page('<p>SKU: ROW-1</p><div data-sku="ATTR-1"></div><form action="/cart/add"><button>Add to cart</button></form>'));
  assert.equal(labelled?.sku?.value, 'ROW-1');
});

test('a real page whose article number is only in a data attribute: the IKEA sofa-bed module with its markup stripped', (t) => {
  const dir = requireRealFixtures(t);
  if (!dir) return;
  const product = extractProduct(parsePage(stripMarkup(readRealFixture(dir, 'pages/ikea-gb-sofabed-jsonld-outofstock-reviews.html')), 'https://shop.example/item/1'));
  assert.equal(product?.sku?.value, '99277508');
});

test('linear time: data attributes, price elements and hidden inputs over a long page', () => {
  const make = (n: number) => `<body>${'<div class="product-price x-price-old" data-product-sku="A-1" data-ean="4006381333931"><input type="hidden" name="sku" value="B2">1,00</div>'.repeat(n)}</body>`;
  assertLinear('parsePage + attributeCodes', 100, make, (html) => attributeCodes(parsePage(html, 'https://shop.example/p')));
});
