// GET /badge/{host}.svg through the real app: shape of the SVG (our numbers only, nothing executable), the headers
// of docs/security.md O2, grade colours, the grey badge for unknown and delisted hosts, ETag/304, and 400 JSON paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { getJson, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';

const BADGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Every text node and every attribute of the SVG, from a parser that expands nothing. */
function svgParts(svg: string): { texts: string[]; attrs: [string, string][]; tags: string[] } {
  assert.equal(XMLValidator.validate(svg), true, 'the badge is well-formed XML');
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', processEntities: false, preserveOrder: true });
  const tree = parser.parse(svg) as unknown[];
  const texts: string[] = [];
  const attrs: [string, string][] = [];
  const tags: string[] = [];
  const visit = (nodes: unknown[]) => {
    for (const node of nodes as Record<string, unknown>[]) {
      for (const [key, value] of Object.entries(node)) {
        if (key === ':@') {
          for (const [name, v] of Object.entries(value as Record<string, string>)) attrs.push([name.slice(1), String(v)]);
        } else if (key === '#text') {
          texts.push(String(value));
        } else {
          tags.push(key);
          visit(value as unknown[]);
        }
      }
    }
  };
  visit(tree);
  return { texts, attrs, tags };
}

test('a scanned host gets "agent-ready | <score> <grade>" with nothing executable or external in it', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 72 });
  const res = await fetch(`${app.url}/badge/shop.test.svg`);
  assert.equal(res.status, 200);
  const svg = await res.text();
  const { texts, attrs, tags } = svgParts(svg);
  assert.ok(!tags.includes('script'));
  assert.ok(!tags.includes('foreignObject'));
  for (const [name, value] of attrs) {
    assert.ok(!/^on/i.test(name), `attribute ${name}`);
    if (/href$/i.test(name)) assert.fail(`external reference ${name}=${value}`);
  }
  assert.ok(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(svg), 'no URL besides the SVG namespace');
  assert.deepEqual(new Set(texts.map((s) => s.trim()).filter(Boolean)), new Set(['agent-ready', '72 B', 'agent-ready: 72 B']));
});

test('"agent-ready" is on the badge only when the store meets the agent-ready rule; otherwise it reads "agent readiness"', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'low.test', score: 28 });
  await saveFakeScan(app.db, { host: 'stale.test', score: 88, createdAt: new Date(Date.now() - 120 * 86_400_000) });
  await saveFakeScan(app.db, { host: 'ready.test', score: 88 });
  const labels = async (host: string) => svgParts(await (await fetch(`${app.url}/badge/${host}.svg`)).text()).texts.map((s) => s.trim()).filter(Boolean);
  assert.deepEqual(new Set(await labels('low.test')), new Set(['agent readiness', '28 E', 'agent readiness: 28 E']));
  assert.deepEqual(new Set(await labels('stale.test')), new Set(['agent readiness', '88 A', 'agent readiness: 88 A']), 'older than 90 days');
  assert.deepEqual(new Set(await labels('ready.test')), new Set(['agent-ready', '88 A', 'agent-ready: 88 A']));
  assert.ok(!(await labels('nowhere.test')).some((s) => s.includes('agent-ready')), 'not scanned is not agent-ready');
});

test('badge headers follow security.md O2', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 90 });
  for (const host of ['shop.test', 'unknown.test']) {
    const res = await fetch(`${app.url}/badge/${host}.svg`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('content-security-policy'), BADGE_CSP);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.match(res.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]+"$/);
  }
});

test('colour follows the grade; www., upper case and a URL-ish host find the same entry', async (t) => {
  const app = await startApp(t);
  const cases: [string, number, string][] = [
    ['a.test', 95, '#4b0'], // brightgreen
    ['b.test', 75, '#67ac09'], // green
    ['c.test', 60, '#d8b800'], // yellow
    ['d.test', 45, '#ea7233'], // orange
    ['e.test', 10, '#dd4343'], // red
  ];
  for (const [host, score] of cases) await saveFakeScan(app.db, { host, score });
  for (const [host, score, colour] of cases) {
    const svg = await (await fetch(`${app.url}/badge/${host}.svg`)).text();
    assert.ok(svg.includes(`fill="${colour}"`), `${host} ${score} → ${colour}`);
  }
  const upper = await (await fetch(`${app.url}/badge/WWW.A.TEST.svg`)).text();
  assert.match(upper, /95 A/);
});

test('unknown and delisted hosts get the grey "not scanned" badge, still 200', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'gone.test', score: 88 });
  await app.db.setDelisted('gone.test', true);
  for (const host of ['never.test', 'gone.test']) {
    const res = await fetch(`${app.url}/badge/${host}.svg`);
    assert.equal(res.status, 200);
    const svg = await res.text();
    assert.match(svg, /not scanned/);
    assert.ok(svg.includes('fill="#939393"'), 'lightgrey');
    assert.doesNotMatch(svg, /88/);
  }
});

test('ETag is a hash of the SVG: If-None-Match answers 304 with the cache headers, a stale tag gets the body', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 72 });
  const first = await fetch(`${app.url}/badge/shop.test.svg`);
  const etag = first.headers.get('etag')!;
  await first.text();
  const again = await fetch(`${app.url}/badge/shop.test.svg`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get('etag'), etag);
  assert.equal(again.headers.get('cache-control'), 'public, max-age=3600');
  assert.equal(await again.text(), '');
  const listed = await fetch(`${app.url}/badge/shop.test.svg`, { headers: { 'if-none-match': `"old", W/${etag}` } });
  assert.equal(listed.status, 304);
  // A new scan changes the badge, so the old tag no longer matches.
  await saveFakeScan(app.db, { host: 'shop.test', score: 91 });
  const changed = await fetch(`${app.url}/badge/shop.test.svg`, { headers: { 'if-none-match': etag } });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get('etag'), etag);
  assert.match(await changed.text(), /91 A/);
});

test('a path that is not a host name is a 400 JSON error that reflects nothing (O2, O7)', async (t) => {
  const app = await startApp(t);
  for (const path of [
    '/badge/%3Csvg%20onload%3Dalert(1)%3E.svg',
    '/badge/%3Cscript%3E.svg',
    '/badge/%7B%22%24ne%22%3Anull%7D.svg',
    '/badge/shop.test%2Fx.svg',
    '/badge/shop.test@evil.test.svg',
    '/badge/-bad-.test.svg',
    `/badge/${'a'.repeat(300)}.svg`,
  ]) {
    const res = await getJson(`${app.url}${path}`);
    assert.equal(res.status, 400, path);
    assert.equal(res.body.code, 'INVALID_PARAMS', path);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.doesNotMatch(JSON.stringify(res.body), /svg onload|script|\$ne/);
  }
  const noSvg = await getJson(`${app.url}/badge/shop.test`);
  assert.equal(noSvg.status, 404);
  assert.equal(noSvg.body.code, 'NOT_FOUND');
  const post = await getJson(`${app.url}/badge/shop.test.svg`, { method: 'POST' });
  assert.equal(post.status, 405);
});
