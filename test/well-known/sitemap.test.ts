// GET /sitemap.xml through the real app and store, validated against the sitemaps.org 0.9 protocol: the home page,
// the index pages and the latest report of each listed store; delisted hosts never appear; past the per-file limit
// the sitemap becomes an index of child files that together list every URL once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { call, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { renderSitemap } from '../../well-known/sitemap.js';

const BASE = 'http://localhost:3000';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
// W3C Datetime as sitemaps.org allows it: a date, or a date and time with a time zone.
const W3C = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

interface Parsed {
  kind: 'urlset' | 'sitemapindex';
  locs: string[];
  lastmods: (string | undefined)[];
}

/** The protocol's rules: well-formed UTF-8 XML, the 0.9 namespace, ≤ 50,000 entries and 50 MB, absolute escaped
 *  http(s) URLs under the site's own base, ≤ 2,048 characters, W3C lastmod values, no unknown child elements. */
function validateSitemap(xml: string): Parsed {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), 'XML declaration with UTF-8');
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  assert.ok(Buffer.byteLength(xml) <= 50 * 1024 * 1024, '≤ 50 MB');
  assert.doesNotMatch(xml, /&(?!(amp|lt|gt|quot|apos);)/, 'every & is an entity');
  const doc = new XMLParser({ ignoreAttributes: false, processEntities: true, isArray: (name) => ['url', 'sitemap'].includes(name) }).parse(xml);
  const kind = doc.urlset ? 'urlset' : doc.sitemapindex ? 'sitemapindex' : null;
  assert.ok(kind, 'root is <urlset> or <sitemapindex>');
  const root = doc[kind];
  assert.equal(root['@_xmlns'], NS);
  const items: Record<string, unknown>[] = root[kind === 'urlset' ? 'url' : 'sitemap'] ?? [];
  assert.ok(items.length >= 1 && items.length <= 50_000, `${items.length} entries`);
  const allowed = kind === 'urlset' ? ['loc', 'lastmod', 'changefreq', 'priority'] : ['loc', 'lastmod'];
  for (const item of items) {
    for (const key of Object.keys(item)) assert.ok(allowed.includes(key), `unexpected <${key}>`);
    const loc = String(item.loc);
    assert.ok(loc.length <= 2048, loc);
    assert.ok(loc.startsWith(`${BASE}/`), `${loc} is under the site's base`);
    assert.equal(new URL(loc).href, loc, `${loc} is an absolute, normalised URL`);
    if (item.lastmod !== undefined) assert.match(String(item.lastmod), W3C);
  }
  const locs = items.map((i) => String(i.loc));
  assert.equal(new Set(locs).size, locs.length, 'no URL twice');
  return { kind, locs, lastmods: items.map((i) => (i.lastmod === undefined ? undefined : String(i.lastmod))) };
}

test('an empty index: a urlset with the home page and the index, as XML, public and cacheable', async (t) => {
  const app = await startApp(t);
  const res = await call(`${app.url}/sitemap.xml`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
  const sm = validateSitemap(res.text);
  assert.equal(sm.kind, 'urlset');
  assert.deepEqual(sm.locs, [`${BASE}/`, `${BASE}/index`]);
});

test('lists each listed store\'s latest report with its scan time, and the index of each category that has stores', async (t) => {
  const app = await startApp(t);
  const when = new Date('2026-11-20T10:00:00.000Z');
  await saveFakeScan(app.db, { host: 'old.test', score: 50, vertical: 'apparel', createdAt: new Date('2026-11-01T00:00:00Z') });
  const latest = await saveFakeScan(app.db, { host: 'old.test', score: 60, vertical: 'apparel', createdAt: when });
  const pets = await saveFakeScan(app.db, { host: 'pets.test', score: 80, vertical: 'pets' });
  const gone = await saveFakeScan(app.db, { host: 'gone.test', score: 90 });
  await app.db.setDelisted('gone.test', true);

  const sm = validateSitemap((await call(`${app.url}/sitemap.xml`)).text);
  assert.deepEqual(sm.locs, [
    `${BASE}/`,
    `${BASE}/index`,
    `${BASE}/index?vertical=apparel`,
    `${BASE}/index?vertical=pets`,
    `${BASE}/r/${pets.scan_id}`,
    `${BASE}/r/${latest.scan_id}`,
  ]);
  assert.equal(sm.lastmods[5], '2026-11-20T10:00:00Z');
  assert.ok(!sm.locs.includes(`${BASE}/r/${gone.scan_id}`), 'a delisted host never appears');

  await app.db.setDelisted('gone.test', false);
  assert.ok(validateSitemap((await call(`${app.url}/sitemap.xml`)).text).locs.includes(`${BASE}/r/${gone.scan_id}`), 'relisted: back');
});

test('past the per-file limit: a sitemap index whose children list every URL exactly once, each within the limit', async (t) => {
  const app = await startApp(t);
  const reports = [];
  for (let i = 0; i < 7; i++) reports.push(await saveFakeScan(app.db, { host: `s${i}.test`, score: 40 + i, vertical: i % 2 ? 'pets' : null }));
  await saveFakeScan(app.db, { host: 'delisted.test', score: 99 });
  await app.db.setDelisted('delisted.test', true);
  const whole = validateSitemap((await renderSitemap(app.db, BASE, null))!);
  assert.equal(whole.kind, 'urlset');
  assert.equal(whole.locs.length, 3 + 7);

  const index = validateSitemap((await renderSitemap(app.db, BASE, null, 4))!);
  assert.equal(index.kind, 'sitemapindex');
  assert.deepEqual(index.locs, [1, 2, 3].map((n) => `${BASE}/sitemap-${n}.xml`));
  const children = [];
  for (const n of [1, 2, 3]) {
    const child = validateSitemap((await renderSitemap(app.db, BASE, n, 4))!);
    assert.equal(child.kind, 'urlset');
    assert.ok(child.locs.length <= 4);
    children.push(...child.locs);
  }
  assert.deepEqual(children, whole.locs);
  assert.equal(await renderSitemap(app.db, BASE, 4, 4), null, 'no fourth file');
  assert.equal(await renderSitemap(app.db, BASE, 1), null, 'no child files while one file holds everything');
});

test('child paths that do not exist are the 404 page; other methods on /sitemap.xml a JSON 405', async (t) => {
  const app = await startApp(t);
  for (const path of ['/sitemap-1.xml', '/sitemap-0.xml', '/sitemap-x.xml', '/sitemap-01.xml']) {
    assert.equal((await call(`${app.url}${path}`)).status, 404, path);
  }
  const post = await call(`${app.url}/sitemap.xml`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.body.code, 'METHOD_NOT_ALLOWED');
});
