// recognizeProductPage on small pages: markup settles it; without markup, the combinations of a price or stock
// statement by the title, a purchase control, a product URL and template hints; editorial pages are not products.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { hasPurchaseControl, recognizeProductPage } from '../../../scan/products/recognize.js';
import { readRealFixture, requireRealFixtures, stripMarkup } from '../../helpers/artifacts.js';

const page = (body: string, url = 'https://shop.test/lenses', head = '', bodyAttrs = '') =>
  parsePage(`<!doctype html><html><head>${head}</head><body ${bodyAttrs}>${body}</body></html>`, url);
const verdict = (...args: Parameters<typeof page>) => recognizeProductPage(page(...args));

test('Product markup or OpenGraph product tags settle it', () => {
  const ld = verdict('<h1>Lamp</h1><script type="application/ld+json">{"@type":"Product","name":"Lamp"}</script>');
  assert.deepEqual([ld.isProduct, ld.byMarkup, ld.signals], [true, true, ['product-markup']]);
  const og = verdict('<h1>Lamp</h1>', 'https://shop.test/', '<meta property="og:type" content="product">');
  assert.deepEqual([og.isProduct, og.byMarkup], [true, true]);
});

test('without markup: a price by the title plus a purchase control, a product URL or a template hint', () => {
  const buy = verdict('<h1>Reading lenses</h1><p>40,00 €</p><button>In den Warenkorb</button>');
  assert.equal(buy.isProduct, true);
  assert.deepEqual(buy.signals, ['price-near-title', 'purchase-control']);
  assert.equal(buy.byMarkup, false);
  assert.equal(verdict('<h1>Reading lenses</h1><p>$40.00</p>', 'https://shop.test/products/lenses').isProduct, true);
  assert.equal(verdict('<h1>Reading lenses</h1><p>£40.00</p>', 'https://shop.test/lenses', '', 'class="catalog-product-view page-layout-1column"').isProduct, true);
  // A price alone, or a buy button alone, is not enough.
  assert.equal(verdict('<h1>Reading lenses</h1><p>40,00 €</p>').isProduct, false);
  assert.equal(verdict('<h1>Reading lenses</h1><button>Add to cart</button>').isProduct, false);
});

test('a listing without a buy button: a price by the title and a stock status line of its own', (t) => {
  // teslahunt-car-jsonld-soldout-duplicate-ogtype.html (metascraper test suite, MIT): a used-car classified; without
  // its JSON-LD and OpenGraph tags, at an address that follows no product URL convention, the text makes it a listing.
  const dir = requireRealFixtures(t);
  if (dir) {
    const listing = recognizeProductPage(parsePage(stripMarkup(readRealFixture(dir, 'pages/teslahunt-car-jsonld-soldout-duplicate-ogtype.html')), 'https://teslahunt.io/5YJSA7E49JF269238'));
    assert.equal(listing.isProduct, true);
    assert.deepEqual(listing.signals, ['price-near-title', 'stock-near-title']);
  }
  // A stock word inside a sentence is no status line: a price and prose stay a non-product page.
  assert.equal(verdict('<h1>Reading lenses</h1><p>40,00 €</p><p>We restock these every spring, so they are rarely out of stock for long at our shop.</p>').isProduct, false);
  assert.equal(verdict('<h1>Reading lenses</h1><p>40,00 €</p><p>In stock</p>').isProduct, true);
});

test('the title is found across element breaks, and in a <title> that opens with "Buy"', () => {
  // A heading of two blocks: the visible text breaks the line, the heading's own text does not.
  const split = verdict('<h1><div>VALLENTUNA</div><div>Sofa-bed module</div></h1><p>£515</p><button>Add to bag</button>');
  assert.equal(split.isProduct, true);
  assert.ok(split.titleAt >= 0);
  const buyTitle = recognizeProductPage(
    parsePage('<html><head><title>Buy Tapo C200 Camera | Smart home | Argos</title></head><body><p>Tapo C200 Camera</p><p>£29.99</p><button>Add to trolley</button></body></html>', 'https://shop.test/p/1'),
  );
  assert.equal(buyTitle.isProduct, true);
  assert.equal(buyTitle.titleAt, 0);
});

test('without a price (sold out, price on request): a template hint or a product URL with stock wording and a buy control', () => {
  const soldOut = verdict('<h1>Trail boot</h1><p>Currently unavailable.</p><button>Add to basket</button>', 'https://shop.test/dp/B00X4WHP5E');
  assert.equal(soldOut.isProduct, true);
  assert.ok(soldOut.signals.includes('stock-near-title'));
  const shopify = verdict('<h1>Trail boot</h1><p>Sold out</p><script>var meta = {"pageType":"product"};</script>', 'https://shop.test/trail-boot');
  assert.deepEqual([shopify.isProduct, shopify.signals.includes('template-hint')], [true, true]);
  // Statements that disagree (the product's own, a carousel's) still say this is a product page.
  const retired = verdict('<h1>Tully Sconce</h1><p>No longer available</p><ul><li>Tully Lamp — In stock</li></ul>', 'https://shop.test/tully', '', 'class="pip-page product-page"');
  assert.deepEqual([retired.isProduct, retired.signals.includes('stock-near-title')], [true, true]);
});

test('editorial pages are not product pages, even with a price and a buy link', () => {
  const review = verdict(
    '<h1>The best lenses of 2024</h1><p>Our pick costs $40.00.</p><a href="https://partner.test/x">Buy now</a>',
    'https://news.test/2024/lenses',
    '<meta property="og:type" content="article">',
  );
  assert.deepEqual([review.isProduct, review.signals.includes('editorial-page')], [false, true]);
  const blog = verdict('<h1>Summer sale</h1><p>Everything from €10.</p><script type="application/ld+json">{"@type":"BlogPosting","headline":"Summer sale"}</script>');
  assert.equal(blog.isProduct, false);
});

test('visible prose never counts as a template hint', () => {
  const prose = verdict('<h1>Why we chose a product page layout</h1><p>pageType: "product" and single-product are terms from 9,99 €.</p>', 'https://blog.test/layout');
  assert.equal(prose.signals.includes('template-hint'), false);
  assert.equal(prose.isProduct, false);
});

test('purchase controls: buy texts in store languages, cart forms with a product id', () => {
  for (const text of ['Add to cart', 'Add to Basket', 'Ajouter au panier', 'Aggiungi al carrello', 'Añadir al carrito', 'In winkelwagen', 'Dodaj do koszyka', 'Lägg i varukorgen', 'カートに入れる', '加入購物車']) {
    assert.equal(hasPurchaseControl(page(`<button>${text}</button>`)), true, text);
  }
  assert.equal(hasPurchaseControl(page('<form action="/cart/add" method="get"><input name="product_id" value="4"></form>')), true);
  assert.equal(hasPurchaseControl(page('<form action="/search" method="get"><input name="q"></form><button>Subscribe</button>')), false);
  assert.equal(hasPurchaseControl(page('<a href="/cart">Add to cart guide: how our carts work, a long article title</a>')), false);
});
