// scan/documents/sitemap.ts: urlset / sitemapindex reading, the caps, and the XML bombs of docs/security.md R4.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SITEMAP_ENTRIES, parseSitemap, pickChildSitemap, sameHostUrls } from '../../../scan/documents/sitemap.js';
import { sitemapIndex, urlset } from '../../fixtures/stores.js';
import { assertLinear } from '../../helpers/timing.js';

test('a urlset lists its page URLs in order, entity-decoded', () => {
  const doc = parseSitemap(urlset(['https://shop.test/products/a', 'https://shop.test/search?q=a&page=2']));
  assert.equal(doc.kind, 'urlset');
  assert.equal(doc.complete, true);
  assert.deepEqual(doc.locs, ['https://shop.test/products/a', 'https://shop.test/search?q=a&page=2']);
});

test('a sitemap index lists its children', () => {
  const doc = parseSitemap(sitemapIndex(['https://shop.test/sitemap_pages_1.xml', 'https://shop.test/sitemap_products_1.xml']));
  assert.equal(doc.kind, 'sitemapindex');
  assert.deepEqual(doc.locs, ['https://shop.test/sitemap_pages_1.xml', 'https://shop.test/sitemap_products_1.xml']);
});

test('image and video <loc> elements, comments and CDATA do not confuse the reader', () => {
  const xml = `<?xml version="1.0"?>
<!-- <url><loc>https://shop.test/commented-out</loc></url> -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc><![CDATA[https://shop.test/products/cdata]]></loc>
    <image:image><image:loc>https://cdn.test/a.jpg</image:loc></image:image>
  </url>
  <url><loc>  https://shop.test/products/b  </loc></url>
</urlset>`;
  const doc = parseSitemap(xml);
  assert.equal(doc.kind, 'urlset');
  assert.deepEqual(doc.locs, ['https://shop.test/products/cdata', 'https://shop.test/products/b']);
});

test('a prefixed sitemap namespace is read too', () => {
  const xml = '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://shop.test/p/1</sm:loc></sm:url></sm:urlset>';
  assert.deepEqual(parseSitemap(xml).locs, ['https://shop.test/p/1']);
});

test('HTML, JSON, other XML roots and empty bodies are not sitemaps', () => {
  for (const body of ['', '<!doctype html><html><body><loc>x</loc></body></html>', '{"urlset": []}', '<rss><channel/></rss>', 'hello <urlset>']) {
    assert.equal(parseSitemap(body).kind, null, body);
  }
});

test('a body cut at the size cap still yields the entries before the cut', () => {
  const full = urlset(['https://shop.test/p/1', 'https://shop.test/p/2', 'https://shop.test/p/3']);
  const doc = parseSitemap(full.slice(0, full.indexOf('/p/3')));
  assert.equal(doc.kind, 'urlset');
  assert.equal(doc.complete, false);
  assert.deepEqual(doc.locs, ['https://shop.test/p/1', 'https://shop.test/p/2']);
});

// parseSitemap remembers its last document: each made document differs (a numbered comment), so each is read.
let made = 0;
const unique = (xml: string) => `${xml}<!-- ${made++} -->`;
const entries = (n: number) => unique(urlset(Array.from({ length: n }, (_, i) => `https://shop.test/products/p-${i}`)));

test('only the first 50,000 entries are read, in time linear in their number', () => {
  const doc = parseSitemap(entries(MAX_SITEMAP_ENTRIES + 5_000));
  assert.equal(doc.locs.length, MAX_SITEMAP_ENTRIES);
  assert.equal(doc.truncated, true);
  assert.equal(doc.locs.at(-1), `https://shop.test/products/p-${MAX_SITEMAP_ENTRIES - 1}`);
  assertLinear('urlset entries', MAX_SITEMAP_ENTRIES / 10, entries, parseSitemap);
});

// docs/security.md R4: nothing is expanded (a bomb that were expanded would not finish at all); the time each parse
// takes is measured by `npm run bench`.
test('billion laughs (10 levels × 10) is not expanded', () => {
  let dtd = '<!ENTITY lol "lol">';
  let prev = 'lol';
  for (let i = 1; i <= 10; i++) {
    dtd += `<!ENTITY lol${i} "${`&${prev};`.repeat(10)}">`;
    prev = `lol${i}`;
  }
  const xml = `<?xml version="1.0"?><!DOCTYPE urlset [${dtd}]><urlset><url><loc>https://shop.test/&${prev};</loc></url></urlset>`;
  const doc = parseSitemap(xml);
  assert.equal(doc.kind, 'urlset');
  assert.deepEqual(doc.locs, [`https://shop.test/&${prev};`]);
});

test('one 1,000-char entity referenced 1,000 times is not expanded', () => {
  const xml = `<!DOCTYPE urlset [<!ENTITY big "${'x'.repeat(1000)}">]><urlset><url><loc>https://shop.test/${'&big;'.repeat(1000)}</loc></url><url><loc>https://shop.test/ok</loc></url></urlset>`;
  const doc = parseSitemap(xml);
  assert.ok(doc.locs.every((l) => !l.includes('x'.repeat(100))), 'no expansion');
  assert.ok(doc.locs.includes('https://shop.test/ok'));
});

test('10⁶ character references parse, in time linear in their number', () => {
  const xml = (n: number) => unique(`<urlset><url><loc>https://shop.test/${'&#65;'.repeat(n)}</loc></url><url><loc>https://shop.test/&#65;&#x42;</loc></url></urlset>`);
  assert.deepEqual(parseSitemap(xml(1_000_000)).locs, ['https://shop.test/AB']); // the 5 MB loc is over the URL length cap and skipped
  assertLinear('character references', 100_000, xml, parseSitemap);
});

test('100,000 nested elements and a 5 MB text node are one linear pass', () => {
  const nested = (n: number) => unique(`<urlset>${'<a>'.repeat(n)}${'</a>'.repeat(n)}<url><loc>https://shop.test/p/1</loc></url></urlset>`);
  assert.deepEqual(parseSitemap(nested(100_000)).locs, ['https://shop.test/p/1']);
  assertLinear('nested elements', 10_000, nested, parseSitemap);
  const text = (n: number) => unique(`<urlset><url><loc>https://shop.test/p/2</loc><x>${'ABCDE'.repeat(n)}</x></url></urlset>`);
  assert.deepEqual(parseSitemap(text(1_000_000)).locs, ['https://shop.test/p/2']);
  assertLinear('text node', 100_000, text, parseSitemap);
});

test('sameHostUrls keeps http(s) URLs on the store host (www. ignored), without fragments or duplicates', () => {
  const locs = [
    'https://shop.test/products/a#top',
    'https://www.shop.test/products/b',
    'https://shop.test/products/a',
    'https://evil.test/products/c',
    'javascript:alert(1)',
    'ftp://shop.test/x',
    '/relative/path',
    'https://user:pw@shop.test/products/d',
  ];
  assert.deepEqual(sameHostUrls(locs, 'https://shop.test/'), ['https://shop.test/products/a', 'https://www.shop.test/products/b']);
});

test('pickChildSitemap prefers a product sitemap, else the first', () => {
  assert.equal(pickChildSitemap(['https://s.test/pages.xml', 'https://s.test/sitemap_products_1.xml']), 'https://s.test/sitemap_products_1.xml');
  assert.equal(pickChildSitemap(['https://s.test/a.xml', 'https://s.test/b.xml']), 'https://s.test/a.xml');
  assert.equal(pickChildSitemap([]), null);
});
