// Availability comes from the buy box of the page's item: stock words of other variants (select options, swatches),
// of recommended items and of a delivery option do not speak for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { asideLines, productStatements } from '../../../scan/products/buy-box.js';
import { assertLinear } from '../../helpers/timing.js';

const BUY = '<form action="/cart/add" method="post"><button>Add to cart</button></form>';
const availability = (body: string) =>
  extractProduct(
    parsePage(
      `<!doctype html><html lang="en"><head><title>Crew tee</title></head><body><nav><a href="/">Home</a></nav><h1>Classic crew tee</h1><p>£12.00</p>${body}</body></html>`,
      'https://shop.example/products/crew-tee',
    ),
  )?.availability?.value;

test('a variant selector listing a sold-out size does not make the item sold out while the buy button sells it', () => {
  assert.equal(availability(`<label>Size</label><select name="size"><option>S</option><option>M - Sold out</option><option selected>L</option></select>${BUY}`), 'InStock');
  const swatches = `<fieldset><legend>Size</legend><input type="radio" name="size" id="s" checked><label for="s" class="swatch">S</label>
<input type="radio" name="size" id="m" disabled><label for="m" class="swatch swatch--disabled">M Sold out</label></fieldset>${BUY}`;
  assert.equal(availability(swatches), 'InStock');
  // The chosen option speaks for the item.
  assert.equal(availability('<select name="size"><option selected>One size - Sold out</option></select><button disabled>Sold out</button>'), 'OutOfStock');
});

test('a related-products carousel saying "Sold out" does not speak for the item; the item\'s own "Sold out" still does', () => {
  const carousel = '<section class="product-recommendations"><h2>Complete the look</h2><div class="card"><a href="/products/cap">Cap</a><p>Sold out</p></div></section>';
  assert.equal(availability(`${BUY}${carousel}`), 'InStock');
  assert.equal(availability(`<p>Sold out</p>${carousel}`), 'OutOfStock');
});

test('"Express delivery unavailable" is about a delivery option, not the item; delivery estimates still count', () => {
  assert.equal(availability(`${BUY}<ul class="delivery-options"><li>Standard delivery £3.95</li><li>Express delivery unavailable</li></ul>`), 'InStock');
  assert.equal(availability('<p>Currently unavailable</p><p>Standard delivery £3.95</p>'), 'OutOfStock');
  assert.equal(productStatements('Delivery in 3 weeks')[0]?.status, 'BackOrder');
});

test('a line counts as another item\'s only while the aside blocks hold it as often as the page does', () => {
  const isAside = asideLines('Sold out\nCap\nSold out', ['CapSold out']);
  assert.equal(isAside('Sold out'), false); // printed twice, once outside the card
  assert.equal(asideLines('Cap\nSold out', ['CapSold out'])('Sold out'), true);
  assert.equal(asideLines('Cap\nSold out', [])('Sold out'), false);
});

test('linear time: aside blocks and their lines over a long page', () => {
  const make = (n: number) =>
    `<body><h1>Tee</h1>${'<div class="related-products"><a href="/p">Cap</a><p>Sold out</p></div><select><option>M - Sold out</option></select>'.repeat(n)}${BUY}</body>`;
  assertLinear('parsePage + extractProduct with aside blocks', 50, make, (html) => extractProduct(parsePage(html, 'https://shop.example/p')));
});
