// scan/sitemap.ts: urlset / sitemapindex reading, the caps, and the XML bombs of design/security.md R4.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { MAX_SITEMAP_ENTRIES, parseSitemap, pickChildSitemap, sameHostUrls } from '../../scan/sitemap.js';
import { sitemapIndex, urlset } from '../fixtures/stores.js';

const timed = <T>(fn: () => T): { value: T; ms: number } => {
  const t = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t };
};

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

test('only the first 50,000 entries are read', () => {
  const xml = urlset(Array.from({ length: MAX_SITEMAP_ENTRIES + 5_000 }, (_, i) => `https://shop.test/products/p-${i}`));
  const { value: doc, ms } = timed(() => parseSitemap(xml));
  assert.equal(doc.locs.length, MAX_SITEMAP_ENTRIES);
  assert.equal(doc.truncated, true);
  assert.equal(doc.locs.at(-1), `https://shop.test/products/p-${MAX_SITEMAP_ENTRIES - 1}`);
  assert.ok(ms < 1500, `50k entries read in ${ms.toFixed(0)} ms`); // a hang catcher, not a benchmark (≈ 100 ms here)
});

// security.md R4: each bomb parses in < 200 ms (or is rejected), and nothing is expanded.
test('billion laughs (10 levels × 10) is not expanded', () => {
  let dtd = '<!ENTITY lol "lol">';
  let prev = 'lol';
  for (let i = 1; i <= 10; i++) {
    dtd += `<!ENTITY lol${i} "${`&${prev};`.repeat(10)}">`;
    prev = `lol${i}`;
  }
  const xml = `<?xml version="1.0"?><!DOCTYPE urlset [${dtd}]><urlset><url><loc>https://shop.test/&${prev};</loc></url></urlset>`;
  const { value: doc, ms } = timed(() => parseSitemap(xml));
  assert.ok(ms < 200, `${ms.toFixed(1)} ms`);
  assert.equal(doc.kind, 'urlset');
  assert.deepEqual(doc.locs, [`https://shop.test/&${prev};`]);
});

test('one 1,000-char entity referenced 1,000 times is not expanded', () => {
  const xml = `<!DOCTYPE urlset [<!ENTITY big "${'x'.repeat(1000)}">]><urlset><url><loc>https://shop.test/${'&big;'.repeat(1000)}</loc></url><url><loc>https://shop.test/ok</loc></url></urlset>`;
  const { value: doc, ms } = timed(() => parseSitemap(xml));
  assert.ok(ms < 200, `${ms.toFixed(1)} ms`);
  assert.ok(doc.locs.every((l) => !l.includes('x'.repeat(100))), 'no expansion');
  assert.ok(doc.locs.includes('https://shop.test/ok'));
});

test('10⁶ character references parse in < 200 ms', () => {
  const xml = `<urlset><url><loc>https://shop.test/${'&#65;'.repeat(1_000_000)}</loc></url><url><loc>https://shop.test/&#65;&#x42;</loc></url></urlset>`;
  const { value: doc, ms } = timed(() => parseSitemap(xml));
  assert.ok(ms < 200, `${ms.toFixed(1)} ms`);
  assert.deepEqual(doc.locs, ['https://shop.test/AB']); // the 5 MB loc is over the URL length cap and skipped
});

// Hang catchers (loose bounds on a shared CI machine): ≈ 50 ms and ≈ 3 ms when idle.
test('100,000 nested elements and a 5 MB text node are one linear pass', () => {
  const nested = `<urlset>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}<url><loc>https://shop.test/p/1</loc></url></urlset>`;
  const a = timed(() => parseSitemap(nested));
  assert.ok(a.ms < 1000, `${a.ms.toFixed(1)} ms`);
  assert.deepEqual(a.value.locs, ['https://shop.test/p/1']);
  const text = `<urlset><url><loc>https://shop.test/p/2</loc><x>${'ABCDE'.repeat(1_000_000)}</x></url></urlset>`;
  const b = timed(() => parseSitemap(text));
  assert.ok(b.ms < 1000, `${b.ms.toFixed(1)} ms`);
  assert.deepEqual(b.value.locs, ['https://shop.test/p/2']);
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
