// extractProduct / isProductPage on small hand-written pages: choosing the product entity, every fact and its
// source, the OpenGraph and visible-HTML fallbacks, how prices, currency, stock and GTINs reach the facts, and linear
// time on hostile pages. The readers themselves are tested in price, availability and identifiers tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProductFacts } from '../../../scan/artifacts.js';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct, isProductPage } from '../../../scan/products/product.js';
import { findPrices, parsePrice } from '../../../scan/products/price.js';
import { assertLinear } from '../../helpers/timing.js';

const URL_ = 'https://shop.test/products/boot';

function product(body: string, head = '', url = URL_): ProductFacts | null {
  return extractProduct(parsePage(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, url));
}

function must(p: ProductFacts | null): ProductFacts {
  assert.ok(p, 'a product');
  return p;
}

const ld = (value: unknown): string => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

const FULL = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Trail Boot',
  description: '<p>Waterproof leather hiking boot with a Vibram sole, for long walks.</p>',
  image: ['/img/boot-1.jpg', { '@type': 'ImageObject', contentUrl: 'https://cdn.test/boot-2.jpg' }, 'data:image/png;base64,xx'],
  brand: { '@type': 'Brand', name: 'Peak' },
  gtin13: '4006381333931',
  mpn: 'PK-100',
  sku: 'B-100',
  color: 'Brown',
  material: 'Leather',
  aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.5', reviewCount: '12' },
  offers: { '@type': 'Offer', price: '189.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
};

// ---------------------------------------------------------------------------------------------------------------
// Signals

test('no product signal → null; markup or OG product tags → a product', () => {
  assert.equal(product('<h1>About us</h1><p>We fix roofs.</p>'), null);
  assert.equal(isProductPage(parsePage('<h1>About</h1>', URL_)), false);
  // A price but no way to buy, on a page whose address is not a product's.
  assert.equal(product('<h1>Blog</h1><p>Price € 10</p>', '', 'https://shop.test/blog/prices'), null);

  const og = must(product('<h1>Lamp</h1>', '<meta property="og:type" content="product"><meta property="og:title" content="Lamp">'));
  assert.equal(og.markup, 'opengraph');
  assert.deepEqual(og.name, { value: 'Lamp', source: 'opengraph' });
  assert.equal(og.product, null);

  const metaOnly = must(product('', '<meta property="product:price:amount" content="12.50"><meta property="product:price:currency" content="usd">'));
  assert.equal(metaOnly.markup, 'opengraph');
  assert.deepEqual(metaOnly.price, { value: 12.5, source: 'opengraph' });
  assert.deepEqual(metaOnly.currency, { value: 'USD', source: 'opengraph' });

  for (const type of ['product', 'product.item', 'og:product', 'product.group']) {
    assert.equal(isProductPage(parsePage(`<meta property="og:type" content="${type}">`, URL_)), true, type);
  }
  assert.equal(isProductPage(parsePage('<meta property="og:type" content="website">', URL_)), false);
  assert.equal(isProductPage(parsePage(ld({ '@type': 'Car', name: 'T' }), URL_)), true);
  // A Book is a product when it is offered, not when a blog reviews it.
  assert.equal(isProductPage(parsePage(ld({ '@type': 'Book', name: 'Novel' }), URL_)), false);
  const book = must(product(ld({ '@type': 'Book', name: 'Novel', isbn: '9780552173742', offers: { '@type': 'Offer', price: '9.99', priceCurrency: 'GBP' } })));
  assert.deepEqual([book.markup, book.gtin?.value, book.gtinValid, book.price?.value], ['json-ld', '9780552173742', true, 9.99]);
});

test('a page with no markup but a title, a visible price and a buy button is read from the HTML (markup none)', () => {
  const p = must(
    product(`<nav><a href="/">Home</a></nav><h1>Reading lenses</h1>
      <table><tr><th>Manufacturer:</th><td>B&amp;S</td></tr><tr><th>Code:</th><td>0638</td></tr></table>
      <p>Availability: In stock</p><p>40.00€</p><p>Excl. VAT: 36.53€</p>
      <form method="post" action="/index.php?route=checkout/cart/add"><button>Add to cart</button></form>`),
  );
  assert.equal(p.markup, 'none');
  assert.deepEqual(p.name, { value: 'Reading lenses', source: 'html' });
  assert.deepEqual(p.price, { value: 40, source: 'html' });
  assert.deepEqual(p.priceText, { value: '40.00€', source: 'html' });
  assert.deepEqual(p.currency, { value: 'EUR', source: 'html' });
  assert.deepEqual(p.availability, { value: 'InStock', source: 'html' });
  assert.deepEqual(p.brand, { value: 'B&S', source: 'html' });
  assert.equal(p.brandIsEntity, false);
  // Without markup the page is still a product page to an agent: a price next to the title and a buy button.
  assert.equal(isProductPage(parsePage('<h1>Reading lenses</h1><p>40.00€</p><button>Add to cart</button>', 'https://shop.test/lenses')), true);
});

// ---------------------------------------------------------------------------------------------------------------
// The product entity

test('a complete JSON-LD Product: every fact with source json-ld', () => {
  const p = must(product(`<h1>Trail Boot</h1>${ld(FULL)}`));
  assert.equal(p.markup, 'json-ld');
  assert.equal(p.url, URL_);
  assert.deepEqual(p.name, { value: 'Trail Boot', source: 'json-ld' });
  assert.deepEqual(p.description, { value: 'Waterproof leather hiking boot with a Vibram sole, for long walks.', source: 'json-ld' });
  assert.deepEqual(p.images, { value: ['https://shop.test/img/boot-1.jpg', 'https://cdn.test/boot-2.jpg'], source: 'json-ld' });
  assert.deepEqual(p.price, { value: 189, source: 'json-ld' });
  assert.deepEqual(p.priceText, { value: '189.00', source: 'json-ld' });
  assert.deepEqual(p.currency, { value: 'EUR', source: 'json-ld' });
  assert.deepEqual(p.availability, { value: 'InStock', source: 'json-ld' });
  assert.deepEqual(p.brand, { value: 'Peak', source: 'json-ld' });
  assert.equal(p.brandIsEntity, true);
  assert.deepEqual(p.gtin, { value: '4006381333931', source: 'json-ld' });
  assert.equal(p.gtinValid, true);
  assert.deepEqual(p.mpn, { value: 'PK-100', source: 'json-ld' });
  assert.deepEqual(p.sku, { value: 'B-100', source: 'json-ld' });
  assert.deepEqual(p.attributes, ['color', 'material']);
  assert.equal(p.hasReviews, true);
  assert.equal(p.offerEntities.length, 1);
  assert.deepEqual(p.offerEntities[0].types, ['Offer']);
  assert.equal(p.product?.types[0], 'Product');
});

test('JSON-LD is preferred over microdata, and gaps are filled from the microdata of the same product', () => {
  const p = must(
    product(`${ld({ '@type': 'AggregateRating', ratingValue: '5', reviewCount: '1', itemReviewed: { '@type': 'Product', name: 'Oven X1', offers: { '@type': 'AggregateOffer', lowPrice: '109.0', priceCurrency: 'EUR' } } })}
      <div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Oven X1</h1>
        <span itemprop="brand">See more from the brand: Panasonic</span>
        <div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span itemprop="price">99</span>
          <link itemprop="availability" href="http://schema.org/InStock"></div></div>`),
  );
  assert.equal(p.markup, 'json-ld');
  assert.deepEqual(p.price, { value: 109, source: 'json-ld' });
  assert.deepEqual(p.availability, { value: 'InStock', source: 'microdata' });
  assert.deepEqual(p.brand, { value: 'Panasonic', source: 'microdata' }); // the label sentence around it dropped
});

test('the richest entity of the preferred source wins; an empty second Product is ignored', () => {
  const p = must(
    product(`${ld({ '@type': 'Product', name: 'Related', url: '/r' })}${ld({ ...FULL, name: 'Main' })}
      <div itemscope itemtype="http://schema.org/Product"></div>`),
  );
  assert.equal(p.name?.value, 'Main');
  const micro = must(
    product(`<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Card</span></div>
      <div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Main</span><span itemprop="sku">9</span>
      <div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="5"></div></div>`),
  );
  assert.equal(micro.markup, 'microdata');
  assert.equal(micro.name?.value, 'Main');
});

test('ProductGroup without offers takes its variants\' offers: lowest price, most available stock', () => {
  const p = must(
    product(
      ld({
        '@type': 'ProductGroup',
        name: 'Tee',
        variesBy: ['https://schema.org/size'],
        hasVariant: [
          { '@type': 'Product', name: 'Tee S', sku: 'T-S', offers: { '@type': 'Offer', price: 25, priceCurrency: 'GBP', availability: 'OutOfStock' } },
          { '@type': 'Product', name: 'Tee M', sku: 'T-M', offers: { '@type': 'Offer', price: 20, priceCurrency: 'GBP', availability: 'https://schema.org/InStock' } },
        ],
      }),
    ),
  );
  assert.deepEqual(p.price, { value: 20, source: 'json-ld' });
  assert.equal(p.currency?.value, 'GBP');
  assert.equal(p.availability?.value, 'InStock');
  assert.equal(p.offerEntities.length, 2);
  assert.equal(p.sku?.value, 'T-S');
  assert.ok(p.attributes.includes('variesBy'));
  assert.equal(p.product?.types[0], 'ProductGroup');
});

test('one node per variant with the same name counts as one product with several offers', () => {
  const variant = (sku: string, availability: string): unknown => ({
    '@type': 'product', name: 'CARDIGAN', gtin8: sku, offers: { '@type': 'Offer', price: 49.99, priceCurrency: 'EUR', availability },
  });
  const p = must(product(ld({ '@type': 'brand', name: 'JJ', '@graph': [variant('5715093615813', 'OutOfStock'), variant('5715093615714', 'InStock')] })));
  assert.equal(p.availability?.value, 'InStock');
  assert.equal(p.offerEntities.length, 2);
  assert.equal(p.gtin?.value, '5715093615813');
  assert.equal(p.gtinValid, true); // a 13-digit EAN, whatever the property is called
});

// ---------------------------------------------------------------------------------------------------------------
// Prices

test('offer prices: lowPrice, priceSpecification (not the list price), cheapest offer, zero, unreadable', () => {
  const offerPage = (offers: unknown): ProductFacts => must(product(ld({ '@type': 'Product', name: 'X', offers })));
  assert.equal(offerPage({ '@type': 'AggregateOffer', lowPrice: '5.29', highPrice: '9.56', priceCurrency: 'GBP' }).price?.value, 5.29);
  const spec = offerPage({
    '@type': 'Offer',
    priceSpecification: [
      { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: 30, priceCurrency: 'USD' },
      { '@type': 'UnitPriceSpecification', price: 24, priceCurrency: 'USD' },
    ],
  });
  assert.equal(spec.price?.value, 24);
  assert.equal(spec.currency?.value, 'USD');
  assert.equal(offerPage([{ '@type': 'Offer', price: '18.00' }, { '@type': 'Offer', price: '17.10' }]).price?.value, 17.1);
  assert.equal(offerPage({ '@type': 'Offer', price: '0' }).price?.value, 0);
  const text = offerPage({ '@type': 'Offer', price: 'Call for price' });
  assert.equal(text.price, null);
  assert.deepEqual(text.priceText, { value: 'Call for price', source: 'json-ld' });
  assert.equal(offerPage({ '@type': 'Offer', price: '€1.299,00' }).price?.value, 1299);
});

// ---------------------------------------------------------------------------------------------------------------
// Currency, availability, identifiers, brand

test('currency: a symbol takes the code the page\'s signals (URL country, lang region) agree on, else its default or stays raw', () => {
  const ca = must(product('<h1>Toque</h1><p>$24.99</p><button>Add to cart</button>', '', 'https://shop.ca/p/1'));
  assert.equal(ca.currency?.value, 'CAD');
  const us = must(product('<h1>Cap</h1><p>$24.99</p><button>Add to cart</button>', '', 'https://shop.test/p/1'));
  assert.equal(us.currency?.value, 'USD'); // "$" with nothing naming another dollar
  const nordic = must(product('<h1>Mössa</h1><p>199 kr</p><button>Add to cart</button>', '', 'https://shop.test/p/1'));
  assert.equal(nordic.currency?.value, 'kr'); // SEK, NOK, DKK or ISK: nothing on the page says which
  const lang = extractProduct(parsePage('<html lang="en-AU"><body><h1>Hat</h1><p>$9</p><button>Buy now</button></body></html>', URL_));
  assert.equal(lang?.currency?.value, 'AUD');
});

test('availability: markup values are normalised, stock wording is read as its state, unknown text is kept raw', () => {
  const url = must(product(ld({ '@type': 'Product', name: 'X', offers: { '@type': 'Offer', price: 1, availability: 'http://schema.org/SoldOut' } })));
  assert.deepEqual(url.availability, { value: 'SoldOut', source: 'json-ld' });
  const worded = must(product(ld({ '@type': 'Product', name: 'X', offers: { '@type': 'Offer', price: 1, availability: 'ships in 3 weeks' } })));
  assert.deepEqual(worded.availability, { value: 'BackOrder', source: 'json-ld' });
  assert.deepEqual(worded.availabilityRaw, { value: 'ships in 3 weeks', source: 'json-ld' });
  const raw = must(product(ld({ '@type': 'Product', name: 'X', offers: { '@type': 'Offer', price: 1, availability: 'ask in store' } })));
  assert.deepEqual(raw.availability, { value: 'ask in store', source: 'json-ld' });
});

test('visible stock wording: unambiguous only; a buy button or a price with no stock warning means in stock', () => {
  const page = (text: string, button = ''): ProductFacts =>
    must(product(`<h1>Kettle</h1><p>${text}</p><p>€ 20</p>${button}`, '<meta property="og:type" content="product">'));
  assert.deepEqual(page('Sold out').availability, { value: 'OutOfStock', source: 'html' });
  assert.deepEqual(page('Currently unavailable').availability, { value: 'OutOfStock', source: 'html' });
  assert.deepEqual(page('Auf Lager').availability, { value: 'InStock', source: 'html' });
  // Ambiguous wording, or none, next to a price: an agent takes the product as buyable.
  assert.deepEqual(page('In stock online, out of stock in store').availability, { value: 'InStock', source: 'html' });
  assert.deepEqual(page('').availability, { value: 'InStock', source: 'html' });
  assert.equal(must(product('<h1>Kettle</h1><p>Ask us</p>', '<meta property="og:type" content="product">')).availability, null);
  assert.deepEqual(page('', '<button>Add to basket</button>').availability, { value: 'InStock', source: 'html' });
  assert.deepEqual(page('Sold out', '<button>Add to basket</button>').availability, { value: 'OutOfStock', source: 'html' });
});

test('GTINs: the published value is kept, its check digit decides gtinValid; productID/identifier holding a GTIN', () => {
  const p = must(product(ld({ '@type': 'Product', name: 'X', gtin: '4006381333932' })));
  assert.equal(p.gtin?.value, '4006381333932');
  assert.equal(p.gtinValid, false);
  const id = must(product(ld({ '@type': 'Product', name: 'X', identifier: '8592733020681', productID: 'isbn:9780552173742' })));
  assert.equal(id.gtin?.value, '9780552173742');
});

test('brand: Brand/Organization entity, plain string, a Thing is not a brand entity', () => {
  const brand = (b: unknown): ProductFacts => must(product(ld({ '@type': 'Product', name: 'X', brand: b })));
  assert.equal(brand({ '@type': 'Organization', name: 'Org' }).brandIsEntity, true);
  assert.equal(brand('Plain').brandIsEntity, false);
  assert.equal(brand('Plain').brand?.value, 'Plain');
  const thing = brand({ '@type': 'Thing', name: 'IKEA' });
  assert.equal(thing.brand?.value, 'IKEA');
  assert.equal(thing.brandIsEntity, false);
  assert.equal(brand({ '@type': 'Brand' }).brand, null);
});

// ---------------------------------------------------------------------------------------------------------------
// Fallback order

test('fallbacks: OpenGraph / meta tags, then the visible page, each with its source', () => {
  const p = must(
    product(
      `<h1>Steel Kettle</h1><p>Now € 20,00</p><p>Sold out</p>
       <dl><dt>Brand</dt><dd>Heat</dd><dt>EAN</dt><dd>4006381333931</dd><dt>MPN:</dt><dd>K-7</dd><dt>Item number:</dt><dd>K7-EU</dd></dl>`,
      `<meta property="og:type" content="product"><meta property="og:title" content="Steel Kettle | Shop">
       <meta property="og:image" content="/og.jpg"><meta name="description" content="A kettle that boils water fast.">`,
    ),
  );
  assert.equal(p.markup, 'opengraph');
  assert.deepEqual(p.name, { value: 'Steel Kettle | Shop', source: 'opengraph' });
  assert.deepEqual(p.images, { value: ['https://shop.test/og.jpg'], source: 'opengraph' });
  assert.deepEqual(p.description, { value: 'A kettle that boils water fast.', source: 'meta' });
  assert.deepEqual(p.price, { value: 20, source: 'html' });
  assert.deepEqual(p.currency, { value: 'EUR', source: 'html' });
  assert.deepEqual(p.availability, { value: 'OutOfStock', source: 'html' });
  assert.deepEqual(p.brand, { value: 'Heat', source: 'html' });
  assert.deepEqual(p.gtin, { value: '4006381333931', source: 'html' });
  assert.equal(p.gtinValid, true);
  assert.deepEqual(p.mpn, { value: 'K-7', source: 'html' });
  assert.deepEqual(p.sku, { value: 'K7-EU', source: 'html' });

  const og = must(
    product('<h1>Kettle</h1>', `<meta property="og:type" content="product.item"><meta property="og:price:amount" content="1.299,00">
      <meta property="og:price:currency" content="EUR"><meta property="product:availability" content="in stock">
      <meta property="product:brand" content="Heat"><meta property="product:retailer_item_id" content="K7">
      <meta property="product:gtin" content="32429335302"><meta name="twitter:label1" content="Price"><meta name="twitter:data1" content="€5">`),
  );
  assert.deepEqual(og.price, { value: 1299, source: 'opengraph' });
  assert.deepEqual(og.priceText, { value: '1.299,00', source: 'opengraph' });
  assert.deepEqual(og.availability, { value: 'InStock', source: 'opengraph' });
  assert.deepEqual(og.brand, { value: 'Heat', source: 'opengraph' });
  assert.deepEqual(og.sku, { value: 'K7', source: 'opengraph' });
  assert.equal(og.gtinValid, false);

  const twitter = must(product('<h1>K</h1>', '<meta property="og:type" content="product"><meta name="twitter:label1" content="Price"><meta name="twitter:data1" content="€41.30">'));
  assert.deepEqual(twitter.price, { value: 41.3, source: 'meta' });
});

test('markup beats the page: structured facts are not replaced by visible text, and a price nothing confirms is not read', () => {
  const p = must(product(`<h1>Boot</h1><p>Out of stock</p><p>€ 1</p><p>Brand: Other</p>${ld(FULL)}`));
  assert.equal(p.availability?.source, 'json-ld');
  assert.equal(p.brand?.value, 'Peak');
  // The buy box sells at €1 and the markup's 189 is nowhere on the page: no price rather than a guess.
  assert.equal(p.price, null);
  assert.equal(p.markupPrice?.read, 'none');
  // Where the page shows the markup's amount too, the markup's price stands.
  assert.deepEqual(must(product(`<h1>Boot</h1><p>€ 1</p><p>Price: 189.00 EUR</p>${ld(FULL)}`)).price, { value: 189, source: 'json-ld' });
});

test('labels without a colon count only after the title and only for names and codes', () => {
  const p = must(
    product(`<nav><ul><li>Brand Outlet</li></ul></nav><h1>Watch</h1><p>Brand new for 2020</p><table><tr><td>Brand</td><td>CIGA Design</td></tr>
      <tr><td>Item model number</td><td>Z Series DLC</td></tr><tr><td>ASIN</td><td>B07C8KMQQ6</td></tr></table>`, '<meta property="og:type" content="product">'),
  );
  assert.equal(p.brand?.value, 'CIGA Design');
  assert.equal(p.mpn?.value, 'Z Series DLC');
  assert.equal(p.sku?.value, 'B07C8KMQQ6');
});

test('table lookups with words from the page only hit own entries ("constructor" is no country or stock word)', () => {
  const page = parsePage(
    `<html lang="en-constructor"><head><meta property="og:type" content="product"><meta property="product:availability" content="constructor"></head>
     <body><h1>X</h1></body></html>`,
    'https://shop.constructor/p',
  );
  const p = must(extractProduct(page));
  assert.deepEqual(p.availability, { value: 'constructor', source: 'opengraph' });
});

// ---------------------------------------------------------------------------------------------------------------
// Bounds

test('ReDoS inputs: long runs of digits, separators, currency signs and labels stay linear', () => {
  // Each input at a tenth of its size and at its full size (the second number): 10× the input in ≤ 30× the time.
  const inputs: [string, number, (n: number) => string][] = [
    ['digits', 200_000, (n) => '1'.repeat(n)],
    ['digit, comma', 100_000, (n) => '1,'.repeat(n)],
    ['€1.', 60_000, (n) => '€1.'.repeat(n)],
    ['digit, space … €', 100_000, (n) => `${'1 '.repeat(n)}€`],
    ['Brand, spaces', 150_000, (n) => `Brand${' '.repeat(n)}x`],
    ['Brand: lines', 30_000, (n) => `${'\nBrand:'.repeat(n)}`],
    ['Sold out', 20_000, (n) => `${'Sold out '.repeat(n)}`],
    ['Item no lines', 30_000, (n) => `${'<br>Item no'.repeat(n)}`],
    ['Sold by lines', 30_000, (n) => `${'<br>sold by sold by'.repeat(n)}`],
    ['brand lines', 20_000, (n) => `${'<br>ACME<br>ACME T'.repeat(n)}`],
    ['recommendation words', 30_000, (n) => `${'<br>visitors were huvitatud'.repeat(n)}`],
  ];
  const og = '<meta property="og:type" content="product">';
  for (const [label, size, make] of inputs) {
    const input = (n: number) => {
      const text = make(n);
      return { text, page: parsePage(`<head>${og}</head><body><h1>T</h1><p>${text}</p></body>`, URL_) };
    };
    assertLinear(label, size / 10, input, ({ text, page }) => {
      extractProduct(page);
      findPrices(text.slice(0, 6_000));
      parsePrice(text);
    });
  }
});

test('brand from a store byline or a brand-page link; a menu of brands names none', () => {
  const body = (links: string) => `<h1>Z-Series Skeleton Watch</h1>${links}<p>£220.00</p><button>Add to basket</button>`;
  const byline = must(product(body('<a href="/stores/ciga">Visit the CIGA Design Store</a>')));
  assert.deepEqual(byline.brand, { value: 'CIGA Design', source: 'html' });
  const inName = must(product(`<h1>Acme Trail Boot</h1><a href="/brands/zeta">Zeta</a><a href="/brands/acme">Acme</a><p>€ 99</p><button>Add to cart</button>`));
  assert.deepEqual(inName.brand, { value: 'Acme', source: 'html' });
  const only = must(product(`<h1>Trail Boot</h1><a href="/index.php?route=product/manufacturer.info&amp;manufacturer_id=7">B&amp;S</a><p>€ 99</p><button>Add to cart</button>`));
  assert.equal(only.brand?.value, 'B&S');
  const menu = must(product(`<h1>Trail Boot</h1><a href="/brands">Brands</a><a href="/brands/zeta">Zeta</a><a href="/brands/omega">Omega</a><p>€ 99</p><button>Add to cart</button>`));
  assert.equal(menu.brand, null);
});

test('labelled identifier rows in store languages', () => {
  const rows = (text: string) => must(product(`<h1>Kettle</h1><p>€ 20</p><button>Add to cart</button><table>${text}</table>`));
  assert.equal(rows('<tr><td>Numero oggetto eBay:</td><td>133588510845</td></tr>').sku?.value, '133588510845');
  assert.equal(rows('<tr><td>Modellnummer</td><td>HMP 2000</td></tr>').mpn?.value, 'HMP 2000');
  assert.equal(rows('<tr><td>model name / number:</td><td>XWSC61251</td></tr>').mpn?.value, 'XWSC61251');
  assert.equal(rows('<tr><td>make / manufacturer:</td><td>Indesit</td></tr>').brand?.value, 'Indesit');
  assert.equal(rows('<tr><td>Артикул:</td><td>01245</td></tr>').sku?.value, '01245');
  // Spec lists built of adjacent spans read with label and value glued: the label counts in capitals only.
  const glued = must(product('<h1>Bench top</h1><p>$165.95</p><button>Add to cart</button><ul><li><span>BRAND</span><span>John Boos</span></li><li><span>MANUFACTURERS PART NUMBER</span><span>IST003-O</span></li></ul>'));
  assert.deepEqual([glued.brand?.value, glued.mpn?.value], ['John Boos', 'IST003-O']);
  const menu = must(product('<h1>Bench top</h1><p>$165.95</p><button>Add to cart</button><ul><li>BRANDS</li><li>Brandenburg Gate poster</li></ul>'));
  assert.equal(menu.brand, null);
});

test('invisible bidi marks between a label and its value do not hide the value', () => {
  const p = must(product('<h1>Skin Food</h1><p>€ 8,71</p><button>In den Einkaufswagen</button><ul><li>Hersteller \u200f : \u200e Weleda</li><li>ASIN \u200f : \u200e B006V2OP48</li><li>Modellnummer \u200f : \u200e 8856</li></ul>'));
  assert.deepEqual([p.brand?.value, p.sku?.value, p.mpn?.value], ['Weleda', 'B006V2OP48', '8856']);
});
