// parsePage on small hand-written pages: every PageFacts field, URL resolution, text rules, and the R5/R6 caps
// (100,000 nested divs, a 2 MB page, 100,000-character attributes), each shown to cost time linear in its size
// (a ratio measured in the test). How fast they are is measured by `npm run bench`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage, MAX_VISIBLE_TEXT, metaContent } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { assertLinear } from '../../helpers/timing.js';

const URL_ = 'https://shop.test/dir/page.html';

test('head facts: title, first h1, lang, description, canonical, meta map', () => {
  const p = parsePage(
    `<!doctype html><html lang="de-AT"><head>
      <title>  Trail
        Boot | Shop </title>
      <meta name="Description" content="Waterproof boot.">
      <meta property="og:image" content="https://cdn.test/1.jpg"><meta property="OG:IMAGE" content="https://cdn.test/2.jpg">
      <meta name="twitter:card" property="og:type" content="product">
      <meta itemprop="name" content="not a meta key">
      <link rel="Canonical" href="../boot">
      <link rel="alternate stylesheet" href="/a.css" type="text/css">
    </head><body><svg><title>icon</title></svg><h1>  </h1><h1>Trail <em>Boot</em></h1><h1>Second</h1></body></html>`,
    URL_,
  );
  assert.equal(p.title, 'Trail Boot | Shop');
  assert.equal(p.h1, 'Trail Boot');
  assert.equal(p.lang, 'de-AT');
  assert.equal(p.metaDescription, 'Waterproof boot.');
  assert.equal(p.canonical, 'https://shop.test/boot');
  assert.deepEqual(p.meta['og:image'], ['https://cdn.test/1.jpg', 'https://cdn.test/2.jpg']);
  assert.deepEqual(p.meta['og:type'], ['product']);
  assert.deepEqual(p.meta['twitter:card'], ['product']);
  assert.equal(p.meta.name, undefined);
  assert.equal(metaContent(p.meta, 'OG:Type'), 'product');
  assert.deepEqual(p.headLinks, [
    { rel: ['canonical'], href: 'https://shop.test/boot', type: null },
    { rel: ['alternate', 'stylesheet'], href: 'https://shop.test/a.css', type: 'text/css' },
  ]);
  assert.equal(p.url, URL_);
  assert.equal(p.status, 200);
  assert.equal(p.truncated, false);
});

test('robots: meta robots and googlebot plus X-Robots-Tag (any case, user-agent prefixes dropped)', () => {
  const p = parsePage(
    '<meta name="robots" content="NoIndex, nofollow"><meta name="googlebot" content="nosnippet"><meta name="bingbot" content="noarchive">',
    URL_,
    { headers: { 'X-Robots-Tag': 'noai, googlebot: noimageai, max-snippet:50, unavailable_after: 2030-01-01' }, status: 203, truncated: true },
  );
  assert.deepEqual(p.robots, ['noindex', 'nofollow', 'nosnippet', 'noai', 'noimageai', 'max-snippet:50', 'unavailable_after: 2030-01-01']);
  assert.equal(p.status, 203);
  assert.equal(p.truncated, true);
});

test('links: absolute http(s) URLs, other schemes kept as href with url null, <base href> honoured', () => {
  const p = parsePage(
    `<head><base href="https://cdn.shop.test/en/"></head><body>
      <a href="/products/boot" rel="Nofollow noopener"> Trail <b>Boot</b> </a>
      <a href="boot-2">Boot 2</a>
      <a href="javascript:void(0)">JS</a><a href="JaVaScRiPt:alert(1)">JS2</a>
      <a href="mailto:help@shop.test">Mail</a><a href="tel:+441234">Call</a><a href="data:text/html,x">Data</a>
      <a href="http://[bad">Bad</a><a href="ftp://shop.test/x">FTP</a>
      <a href="/cart" aria-label="Cart"><img src="c.svg"></a>
      <a name="anchor-without-href">x</a>
      <div hidden><a href="/hidden-menu">Hidden</a></div></body>`,
    URL_,
  );
  assert.deepEqual(
    p.links.map((l) => [l.href, l.url, l.text]),
    [
      ['/products/boot', 'https://cdn.shop.test/products/boot', 'Trail Boot'],
      ['boot-2', 'https://cdn.shop.test/en/boot-2', 'Boot 2'],
      ['javascript:void(0)', null, 'JS'],
      ['JaVaScRiPt:alert(1)', null, 'JS2'],
      ['mailto:help@shop.test', null, 'Mail'],
      ['tel:+441234', null, 'Call'],
      ['data:text/html,x', null, 'Data'],
      ['http://[bad', null, 'Bad'],
      ['ftp://shop.test/x', null, 'FTP'],
      ['/cart', 'https://cdn.shop.test/cart', 'Cart'],
      ['/hidden-menu', 'https://cdn.shop.test/hidden-menu', ''],
    ],
  );
  assert.deepEqual(p.links[0].rel, ['nofollow', 'noopener']);
});

test('forms and buttons: action resolved, method, named inputs and buttons, form= owners, role=button', () => {
  const p = parsePage(
    `<body>
      <form action="/cart/add" method="POST" id="buy">
        <input type="hidden" name="id" value="123"><input name="quantity" value="1"><select name="size"></select>
        <textarea name="note"></textarea><input type="checkbox">
        <button type="submit" name="add" value="1">Add to <b>cart</b></button>
        <input type="submit" value="Buy now"><input type="image" alt="Pay" src="p.png">
      </form>
      <input form="buy" name="gift" value="y">
      <form><input type="search" name="q"><button aria-label="Search"><svg></svg></button></form>
      <form method="dialog" action=""></form>
      <div role="button">Wishlist</div><button></button>
    </body>`,
    URL_,
  );
  assert.equal(p.forms.length, 3);
  assert.deepEqual(p.forms[0], {
    action: 'https://shop.test/cart/add',
    method: 'post',
    inputs: [
      { name: 'id', type: 'hidden', value: '123' },
      { name: 'quantity', type: 'text', value: '1' },
      { name: 'size', type: 'select', value: '' },
      { name: 'note', type: 'textarea', value: '' },
      { name: 'add', type: 'submit', value: '1' },
      { name: 'gift', type: 'text', value: 'y' },
    ],
    buttons: ['Add to cart', 'Buy now', 'Pay'],
  });
  assert.deepEqual(p.forms[1], { action: null, method: 'get', inputs: [{ name: 'q', type: 'search', value: '' }], buttons: ['Search'] });
  assert.equal(p.forms[2].action, URL_);
  assert.deepEqual(p.buttons, ['Add to cart', 'Buy now', 'Pay', 'Search', 'Wishlist']);
});

test('JSON-LD blocks: counted, parsed leniently, invalid ones reported; scripts counted', () => {
  const p = parsePage(
    `<script type="application/ld+json">{"@type":"Product","name":"A",}</script>
     <script type="APPLICATION/LD+JSON; charset=utf-8">[{"@type":"Offer"}]</script>
     <script type="application/ld+json">{"@type": "Product", "name": </script>
     <script>var x = 1;</script><script src="/app.js"></script>`,
    URL_,
  );
  assert.equal(p.jsonLd.blocks, 3);
  assert.equal(p.jsonLd.invalidBlocks, 1);
  assert.deepEqual(p.jsonLd.raw, [{ '@type': 'Product', name: 'A' }, [{ '@type': 'Offer' }]]);
  assert.equal(p.jsonLd.errors.length, 2);
  assert.match(p.jsonLd.errors[0], /^block 1: not strict JSON, repaired \(trailing comma\)/);
  assert.match(p.jsonLd.errors[1], /^block 3: invalid JSON/);
  assert.equal(p.scriptCount, 5);
  assert.deepEqual(p.entities.map((e) => e.types[0]), ['Product', 'Offer']);
});

test('visible text: no script/style/template/noscript/svg/title/hidden, blocks on lines, whitespace collapsed', () => {
  const p = parsePage(
    `<head><title>T</title><style>.a{}</style></head><body>
      <p>Hello   <b>big</b>\n\t world</p><script>var secret = 1;</script><template><p>tpl</p></template>
      <noscript><p>Please enable <b>JavaScript</b></p></noscript><svg><text>svgtext</text></svg>
      <div hidden>gone</div><table><tr><th>Brand</th><td>ACME</td></tr><tr><th>EAN</th><td>123</td></tr></table>
      Price:<br>€ 12,50&nbsp;incl.
    </body>`,
    URL_,
  );
  assert.equal(p.visibleText, 'Hello big world\nBrand ACME\nEAN 123\nPrice:\n€ 12,50 incl.');
  assert.equal(p.noscriptText, 'Please enable JavaScript');
});

test('bodyBytes counts UTF-8 bytes; a bad URL disables resolving but never throws', () => {
  const html = '<p>€ ü 😀</p><a href="/x">x</a><link rel="canonical" href="/c">';
  const p = parsePage(html, 'not a url');
  assert.equal(p.bodyBytes, Buffer.byteLength(html, 'utf8'));
  assert.equal(p.links[0].url, null);
  assert.equal(p.canonical, null);
  assert.equal(p.headLinks[0].href, '/c');
});

test('visible text is capped at 200,000 characters', () => {
  const p = parsePage(`<p>${'word '.repeat(100_000)}</p>`, URL_);
  assert.equal(p.visibleText.length, MAX_VISIBLE_TEXT);
});

const nestedDivs = (depth: number) =>
  `<!doctype html><html><body><h1>Top</h1>${'<div>'.repeat(depth)}<a href="/deep">deep</a>${'</div>'.repeat(depth)}</body></html>`;

test('R5: 100,000 nested divs parse (nothing read below depth 512), in time linear in the depth', () => {
  const p = parsePage(nestedDivs(100_000), URL_);
  assert.equal(p.h1, 'Top');
  assert.equal(p.links.length, 0);
  assert.doesNotThrow(() => JSON.stringify(p));
  assertLinear('nested divs', 10_000, nestedDivs, (html) => parsePage(html, URL_));
});

test('a 2 MB product page parses and yields its product, in time linear in its size', () => {
  const card = (i: number): string =>
    `<li class="card"><a href="/products/item-${i}"><img src="/img/${i}.jpg" alt="Item ${i}"><span>Item ${i}</span></a>` +
    `<span class="price">€ ${i},99</span><button type="button">Add to cart</button>` +
    `<script>window.dataLayer.push({"id":${i},"name":"Item ${i}","price":${i}.99});</script></li>`;
  const cards = Array.from({ length: 7_500 }, (_, i) => card(i)).join('');
  const head = `<head><title>Boot</title><meta property="og:type" content="product">
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Boot","sku":"B1",
    "offers":{"@type":"Offer","price":"189.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script></head>`;
  const pageOf = (size: number) => {
    const html = `<!doctype html><html lang="en">${head}<body><h1>Trail Boot</h1><ul>${cards}</ul></body></html>`;
    return html.slice(0, size - 30) + '</ul></body></html>';
  };
  const html = pageOf(2_000_000);
  assert.ok(html.length >= 1_999_000);
  assert.equal(extractProduct(parsePage(html, URL_))?.price?.value, 189);
  // Linear growth from 100 KB to 1 MB (the 2 MB page's own time is measured by npm run bench).
  assertLinear('product page, parsePage + extractProduct', 100_000, pageOf, (page) => extractProduct(parsePage(page, URL_)));
});

test('R6: a meta description of 100,000 "a"s is parsed and read, in time linear in its length', () => {
  const html = (n: number) => `<meta name="description" content="${'a'.repeat(n)}!">`;
  assert.equal(parsePage(html(100_000), URL_).metaDescription?.length, 100_001);
  assertLinear('meta description', 10_000, html, (page) => extractProduct(parsePage(page, URL_)));
});

test('R6: other 100,000-character values (title, h1, href, itemprop, typeof, robots header) stay linear', () => {
  // n = 100,000 is the case of docs/security.md R6; the repeated units scale with it.
  const input = (n: number) => {
    const long = 'a'.repeat(n);
    const html = `<head><meta name="robots" content="${'noindex,'.repeat(n / 5)}"><title>${long}</title></head>
    <body><h1>${long}</h1><a href="${long}">${long}</a><p>${'€1,'.repeat((n * 3) / 10)}</p>
    <div itemscope itemtype="${long}"><span itemprop="${long}">${long}</span></div>
    <div vocab="${long}" typeof="${'T '.repeat((n * 3) / 10)}"><span property="${long}">x</span></div></body>`;
    return { html, headers: { 'x-robots-tag': `${'x:'.repeat(n / 2)}noindex` } };
  };
  assertLinear('long attributes and texts', 10_000, input, ({ html: page, headers: h }) => extractProduct(parsePage(page, URL_, { headers: h })));
});
