// GET /r/{scan_id} through the real app: headers (exact CSP), content (gauge, pillars, checks, fixes, products,
// neighbors, badge snippets, links), Open Graph, 404 pages, delisting, and the escaping of a hostile store's
// strings (docs/security.md O1), checked on the parsed DOM rather than by string search alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'parse5';
import { startApp } from '../helpers/start-app.js';
import { fakeReport, saveFakeScan, saveReport } from '../helpers/scans.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HOSTILE = {
  title: '</title><script>alert(1)</script>',
  img: '<img src=x onerror=alert(1)>',
  attr: '" onmouseover="alert(1)',
  lineSep: 'Line\u2028sep </script><script>window.__pwned=1</script>',
};
const HOSTILE_URLS = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', '" onmouseover="alert(1)'];

type Node = {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
};

function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const child of node.childNodes ?? []) walk(child, visit);
  if (node.content) walk(node.content, visit);
}

function dom(htmlText: string) {
  const doc = parse(htmlText) as unknown as Node;
  const elements: Node[] = [];
  const texts: string[] = [];
  walk(doc, (n) => {
    if (n.tagName) elements.push(n);
    if (n.nodeName === '#text' && n.value) texts.push(n.value);
  });
  const attr = (n: Node, name: string) => n.attrs?.find((a) => a.name === name)?.value;
  return { elements, texts, text: texts.join(''), attr };
}

/** A report with every section filled: three statuses, a hard block, markdown-ish fixes, products, neighbors. */
function richReport(id: number, host: string, opts: { capped?: boolean; hostile?: boolean } = {}): ScanResult {
  const base = fakeReport(id, { host, score: opts.capped ? 35 : 72, capped: opts.capped });
  const h = opts.hostile;
  return {
    ...base,
    url: h ? HOSTILE_URLS[0] : `https://${host}/`,
    vertical: 'apparel',
    pillars: [
      {
        id: 'access',
        label: 'Agent access',
        score: 17,
        max: 20,
        checks: [
          {
            id: 'access_live_agents_robots',
            label: 'Live shopping agents allowed in robots.txt',
            status: opts.capped ? 'fail' : 'pass',
            points: opts.capped ? 0 : 6,
            max: 6,
            evidence: h ? `robots.txt said ${HOSTILE.title}` : 'robots.txt allows every live agent',
            title: opts.capped ? 'robots.txt blocks the live shopping agents' : 'Live shopping agents are allowed',
            why: 'Agents obey robots.txt.',
            hard_block: true,
          },
          {
            id: 'access_no_bot_wall',
            label: 'No bot wall for agent user-agents',
            status: 'partial',
            points: 3,
            max: 6,
            evidence: h ? `title ${HOSTILE.img} ${HOSTILE.attr}` : 'agent UA got 429',
            title: 'Agents are slowed down by rate limits',
            why: 'A challenge page stops an agent.',
            hard_block: true,
          },
        ],
      },
      {
        id: 'product_data',
        label: 'Product data',
        score: 12,
        max: 30,
        checks: [
          {
            id: 'product_identifiers',
            label: 'GTIN / MPN identifiers',
            status: 'fail',
            points: 0,
            max: 4,
            evidence: h ? HOSTILE.lineSep : 'no gtin, mpn or sku on 2 product pages',
            title: 'Products carry no GTIN or MPN',
            why: 'Agents match offers across stores by GTIN.',
            hard_block: false,
          },
        ],
      },
    ],
    top_fixes: [
      {
        check_id: 'product_identifiers',
        title: 'Add GTINs to your Product markup.',
        points: 4,
        how: 'Add `gtin13` to each **Product** node.\n\n- one\n- two <b>not bold</b>',
      },
      { check_id: 'access_no_bot_wall', title: 'Let AI agents past your bot protection.', points: 3, how: 'Allow verified bots.' },
    ],
    neighbors: [
      { rank: 1, host: 'alpha.test', score: 90, grade: 'A', is_self: false },
      { rank: 2, host, score: base.score, grade: base.grade, is_self: true },
      { rank: 3, host: 'gone.test', score: 50, grade: 'D', is_self: false },
    ],
    products: [
      {
        url: h ? HOSTILE_URLS[1] : `https://${host}/products/tee`,
        markup: 'json-ld',
        name: { value: h ? HOSTILE.img : 'Organic Tee', source: 'json-ld' },
        price: { value: 29.5, source: 'json-ld' },
        currency: { value: 'EUR', source: 'json-ld' },
        availability: { value: 'https://schema.org/InStock', source: 'json-ld' },
        brand: { value: h ? HOSTILE.attr : 'Northwind', source: 'microdata' },
        gtin: null,
        mpn: { value: 'NW-TEE-1', source: 'json-ld' },
        sku: null,
        identifiers: [
          { value: 'NW-TEE-1', kind: 'mpn', source: 'markup' },
          { value: '4006381333931', kind: 'gtin', source: 'labelled_text' },
        ],
        image: { value: h ? HOSTILE_URLS[2] : `https://${host}/tee.jpg`, source: 'opengraph' },
        attributes: ['color'],
      },
      ...(h
        ? [
            {
              url: HOSTILE_URLS[2],
              markup: 'microdata' as const,
              name: { value: HOSTILE.lineSep, source: 'microdata' as const },
              price: null,
              currency: null,
              availability: { value: HOSTILE.title, source: 'microdata' as const },
              brand: null,
              gtin: { value: HOSTILE_URLS[3], source: 'microdata' as const },
              mpn: null,
              sku: null,
              identifiers: [],
              image: null,
              attributes: [],
            },
            {
              url: HOSTILE_URLS[3],
              markup: 'none' as const,
              name: { value: HOSTILE.title, source: 'html' as const },
              price: null,
              currency: null,
              availability: null,
              brand: null,
              gtin: null,
              mpn: null,
              sku: null,
              identifiers: [],
              image: null,
              attributes: [],
            },
          ]
        : []),
    ],
  };
}

test('a report page carries the exact CSP, nosniff, no-referrer and HTML content type', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 72 });
  const res = await fetch(`${app.url}/r/${report.scan_id}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-security-policy'), CSP);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const body = await res.text();
  assert.match(body, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.doesNotMatch(body, /<script|style=/i, 'no script and no inline style anywhere');
});

test('the report shows score, grade, pillars, every check with its status, fixes, products, neighbors and badge', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'alpha.test', score: 90 });
  await saveFakeScan(app.db, { host: 'gone.test', score: 50 });
  await app.db.setDelisted('gone.test', true);
  const id = await app.db.allocateScanId();
  await saveReport(app.db, richReport(id, 'shop.test'));

  const body = await (await fetch(`${app.url}/r/${id}`)).text();
  const { elements, text, attr } = dom(body);
  assert.match(text, /shop\.test/);
  assert.equal(elements.find((e) => attr(e, 'data-testid') === 'score') && text.includes('72'), true);
  assert.match(body, /class="grade-pill grade-B grade-pill-xl">B</);
  assert.match(text, /Grade B\./);
  assert.match(text, /Agent access/);
  assert.match(text, /17 \/ 20/);
  // Status by text and icon, colour by class.
  assert.match(body, /class="check status-pass"/);
  assert.match(body, /class="check status-partial"/);
  assert.match(body, /class="check status-fail"/);
  for (const word of ['✓ Pass', '◐ Partial', '✕ Fail']) assert.ok(text.includes(word), word);
  assert.match(text, /robots\.txt allows every live agent/);
  assert.match(text, /0 \/ 4/);
  // Fixes: points, markdown-ish how-to with code and bold, raw tags escaped.
  assert.match(text, /\+4 pts/);
  assert.match(body, /<code>gtin13<\/code>/);
  assert.match(body, /<strong>Product<\/strong>/);
  assert.match(body, /<li>two &lt;b&gt;not bold&lt;\/b&gt;<\/li>/);
  // What agents see.
  assert.match(text, /Organic Tee/);
  assert.match(text, /€29\.50/);
  assert.match(text, /InStock/);
  assert.match(text, /MPN NW-TEE-1/);
  assert.match(text, /GTIN 4006381333931 labelled text/); // every identifier, with where it was read
  assert.match(text, /not found/);
  assert.match(body, /<span class="src">microdata<\/span>/);
  // Neighbors: the delisted one is gone, the other links to its latest report.
  assert.ok(elements.some((e) => attr(e, 'href') === '/verify/alpha.test'));
  assert.doesNotMatch(text, /gone\.test/);
  // Badge and its snippets.
  assert.ok(elements.some((e) => e.tagName === 'img' && attr(e, 'src') === '/badge/shop.test.svg'));
  assert.ok(text.includes('[![Agent-ready score for shop.test](http://localhost:3000/badge/shop.test.svg)](http://localhost:3000/verify/shop.test)'));
  assert.ok(text.includes('<a href="http://localhost:3000/verify/shop.test"><img src="http://localhost:3000/badge/shop.test.svg" alt="Agent-ready score for shop.test"></a>'));
  assert.ok(elements.some((e) => e.tagName === 'pre'));
  // Links: JSON, brief (Pro), re-scan.
  const hrefs = elements.map((e) => attr(e, 'href')).filter(Boolean);
  assert.ok(hrefs.includes(`/api/v1/scan/${id}.json`));
  assert.ok(hrefs.includes(`/api/v1/scan/${id}/brief.md`));
  assert.ok(hrefs.includes('/?url=https%3A%2F%2Fshop.test%2F&vertical=apparel'));
  assert.match(text, /needs a Pro API key/);
  // Open Graph.
  const meta = (p: string) => attr(elements.find((e) => e.tagName === 'meta' && attr(e, 'property') === p)!, 'content');
  assert.equal(meta('og:title'), 'shop.test scores 72/100 (B) for AI-agent readiness');
  assert.equal(meta('og:url'), `http://localhost:3000/r/${id}`);
  assert.equal(meta('og:image'), `http://localhost:3000/r/${id}/card.png`, 'a PNG card: networks show no SVG');
  assert.ok((meta('og:description') ?? '').length > 20);
});

test('a capped report explains the block above everything else', async (t) => {
  const app = await startApp(t);
  const id = await app.db.allocateScanId();
  await saveReport(app.db, richReport(id, 'blocked.test', { capped: true }));
  const body = await (await fetch(`${app.url}/r/${id}`)).text();
  const { text } = dom(body);
  assert.match(text, /Score capped at 35: robots\.txt blocks the live AI shopping agents/);
  assert.match(text, /OAI-SearchBot/);
  assert.match(body, new RegExp(`href="/r/${id}#check-access_live_agents_robots"`));
  assert.match(body, /class="tag tag-block"/);
  assert.ok(body.indexOf('banner-capped') < body.indexOf('Score by pillar'));
});

test('unknown, malformed and delisted report ids answer a 404 HTML page', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'hidden.test', score: 60 });
  await app.db.setDelisted('hidden.test', true);
  for (const path of ['/r/999', '/r/0', '/r/abc', '/r/1.5', '/r/-1', '/r/1e3', '/r/%7B%22%24gt%22%3A%22%22%7D', '/r/99999999999999999999', `/r/${report.scan_id}`]) {
    const res = await fetch(`${app.url}${path}`);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
    assert.equal(res.headers.get('content-security-policy'), CSP, path);
    const body = await res.text();
    assert.match(body, /We could not find that report/, path);
    assert.doesNotMatch(body, /hidden\.test/);
  }
});

test("a hostile store's strings are escaped everywhere and its URLs never become links (O1)", async (t) => {
  const app = await startApp(t);
  const id = await app.db.allocateScanId();
  const hostileHost = `${HOSTILE.title}${HOSTILE.img}`;
  await saveReport(app.db, richReport(id, hostileHost, { hostile: true }));
  const res = await fetch(`${app.url}/r/${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-security-policy'), CSP);
  const body = await res.text();

  for (const s of [HOSTILE.title, HOSTILE.img, HOSTILE.attr, '<script', 'onerror=alert(1)>', 'onmouseover="']) {
    assert.ok(!body.includes(s), `raw ${JSON.stringify(s)} must not appear`);
  }
  assert.ok(body.includes('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert.ok(body.includes('&quot; onmouseover=&quot;alert(1)'));

  const { elements, text, attr } = dom(body);
  // The parsed document: no script element, no event-handler attribute, hrefs only http(s) or our own paths.
  assert.equal(elements.filter((e) => e.tagName === 'script').length, 0);
  for (const e of elements) {
    for (const a of e.attrs ?? []) assert.ok(!/^on/i.test(a.name), `${e.tagName} has ${a.name}`);
    assert.equal(attr(e, 'style'), undefined);
    const href = attr(e, 'href');
    if (href !== undefined) assert.match(href, /^(https?:\/\/|\/(?!\/)|#main$)/, `href ${href}`);
    const src = attr(e, 'src');
    if (src !== undefined) assert.match(src, /^\/(?!\/)/, `src ${src}`);
  }
  // The title element holds the whole hostile host as text, and the page's text shows every raw string.
  const title = elements.find((e) => e.tagName === 'title')!;
  assert.ok((title.childNodes?.[0]?.value ?? '').startsWith(hostileHost));
  for (const s of [HOSTILE.title, HOSTILE.img, HOSTILE.attr, HOSTILE.lineSep, ...HOSTILE_URLS]) {
    assert.ok(text.includes(s), `text shows ${JSON.stringify(s)}`);
  }
  // Script URLs are printed as text, not links; an invalid host gets no badge.
  assert.ok(!elements.some((e) => /^\s*(javascript|data):/i.test(attr(e, 'href') ?? '')));
  assert.ok(!body.includes('/badge/&lt;'));
});

test('the stylesheet is served with a year of caching, and pages link it by content hash', async (t) => {
  const app = await startApp(t);
  const home = await (await fetch(`${app.url}/`)).text();
  const href = /<link rel="stylesheet" href="([^"]+)">/.exec(home)?.[1];
  assert.match(href ?? '', /^\/assets\/styles\.css\?v=[0-9a-f]{12}$/);
  const css = await fetch(`${app.url}${href}`);
  assert.equal(css.status, 200);
  assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.equal(css.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(await css.text(), /\.gauge/);
});
