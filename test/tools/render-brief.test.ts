// tools/render-brief.ts: every part of the agent brief from a stored scan, and store text kept inert inside markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { howSteps, renderBrief } from '../../tools/render-brief.js';
import { fenced, inlineCode, safeHttpUrl } from '../../lib/untrusted-markdown.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { fakeReport } from '../helpers/scans.js';

type Check = ScanResult['pillars'][number]['checks'][number];
type Product = ScanResult['products'][number];

const BASE = 'https://readiness.example';

function check(id: string, status: Check['status'], points: number, max: number, evidence: string, hardBlock = false): Check {
  return { id, label: id, status, points, max, evidence, title: `title of ${id}`, why: 'Agents care.', hard_block: hardBlock };
}

function product(over: Partial<Product> = {}): Product {
  return {
    url: 'https://shop.test/products/trail-jacket',
    markup: 'json-ld',
    name: { value: 'Trail Jacket', source: 'json-ld' },
    price: { value: 189, source: 'json-ld' },
    currency: { value: 'EUR', source: 'json-ld' },
    availability: { value: 'InStock', source: 'json-ld' },
    brand: { value: 'Northwind', source: 'json-ld' },
    gtin: null,
    mpn: null,
    sku: { value: 'TJ-42', source: 'json-ld' },
    identifiers: [{ value: 'TJ-42', kind: 'sku', source: 'markup' }],
    image: { value: 'https://shop.test/img/jacket.jpg', source: 'opengraph' },
    attributes: ['color'],
    ...over,
  };
}

/** A scan of a typical theme store: readable products, missing identifiers, no llms.txt, one agent blocked. */
function richScan(over: Partial<ScanResult> = {}): ScanResult {
  const base = fakeReport(12, { host: 'shop.test', score: 61 });
  return {
    ...base,
    url: 'https://shop.test/',
    scanned_at: '2026-11-02T10:00:00.000Z',
    pillars: [
      {
        id: 'access',
        label: 'Agent access',
        score: 14,
        max: 20,
        checks: [
          check('access_live_agents_robots', 'partial', 3, 6, 'https://shop.test/robots.txt: blocked: PerplexityBot', true),
          check('access_ai_policy_declared', 'fail', 0, 1, 'no Content-Signal line'),
        ],
      },
      {
        id: 'discovery',
        label: 'Discovery',
        score: 9,
        max: 15,
        checks: [check('discovery_llms_txt', 'fail', 0, 3, 'https://shop.test/llms.txt answered 404')],
      },
      {
        id: 'product_data',
        label: 'Product data',
        score: 22,
        max: 30,
        checks: [
          check('product_identifiers', 'partial', 2, 4, 'only sku "TJ-42" on 2 of 2 pages'),
          check('product_attributes', 'fail', 0, 1, 'only color'),
          check('product_price', 'pass', 5, 5, 'price 189 EUR'),
        ],
      },
      {
        id: 'trust',
        label: 'Policies & trust',
        score: 9,
        max: 15,
        checks: [check('trust_return_policy', 'partial', 2, 4, 'a returns page is linked'), check('trust_shipping_policy', 'pass', 4, 4, 'OfferShippingDetails for DE')],
      },
    ],
    top_fixes: [
      {
        check_id: 'discovery_llms_txt',
        title: 'Publish an llms.txt for your store',
        points: 3,
        how: 'Create `/llms.txt` in Markdown: an `# Store name` H1, a `> ` one-paragraph summary (what you sell, where you ship, currency), then `## Products`, `## Policies`, `## Support` sections. Serve it as `text/plain` or `text/markdown`, never as an HTML page.',
      },
      {
        check_id: 'access_live_agents_robots',
        title: 'Allow AI shopping agents in robots.txt',
        points: 3,
        how: 'Add explicit groups for `OAI-SearchBot`, `ChatGPT-User` with `Allow: /` (and your usual `Disallow: /cart` lines, because named groups do not inherit from `*`). If you want to refuse training, disallow only `GPTBot`.',
      },
      {
        check_id: 'product_identifiers',
        title: 'Add GTIN or MPN + brand',
        points: 2,
        how: 'Publish the barcode as `gtin13` (EAN), `gtin12` (UPC) or `gtin` with a valid check digit; if the product has no GTIN, publish `mpn` together with `brand`. Keep `sku` as well.',
      },
      { check_id: 'product_attributes', title: 'Expose filterable attributes', points: 1, how: 'Add `color`, `size`, `material` (e.g. `additionalProperty` pairs).' },
      { check_id: 'access_ai_policy_declared', title: 'Declare your AI usage policy', points: 1, how: 'Add a `Content-Signal:` line.' },
    ],
    products: [product(), product({ url: 'https://shop.test/products/rain-hat', name: { value: 'Rain Hat', source: 'microdata' }, attributes: ['color', 'size'] })],
    fetched: [
      { url: 'https://shop.test/', status: 200, ms: 80, outcome: 'ok' },
      { url: 'https://shop.test/sitemap_index.xml', status: 200, ms: 20, outcome: 'ok' },
    ],
    ...over,
  };
}

/** The markdown with fenced blocks and inline code spans removed (CommonMark: a span closes on an equal run). */
function outsideCode(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
}

/** The body of the first fenced block after a heading. */
function blockAfter(md: string, heading: string): string {
  const at = md.indexOf(heading);
  assert.ok(at >= 0, `missing ${heading}`);
  const m = /\n(`{3,})[a-z]*\n([\s\S]*?)\n\1\n/.exec(md.slice(at));
  assert.ok(m, `no code block after ${heading}`);
  return m[2];
}

test('the header names the store, score, grade, cap state, scan id and date', () => {
  const md = renderBrief(richScan(), { baseUrl: BASE });
  assert.match(md, /^# Agent brief: shop\.test\n/);
  assert.match(md, /\*\*Score 61\/100 · grade C\*\*\. Not capped/);
  assert.match(md, /Scan: 12, run 2026-11-02T10:00:00\.000Z/);
  assert.match(md, /Public report: <http:\/\/localhost:3000\/r\/12>/);
  assert.match(md, /\| Product data \| 22\/30 \|/);
  assert.ok(md.endsWith('\n') && !md.includes('\n\n\n'));
});

test('a capped scan says why and that the first fix lifts the cap', () => {
  const md = renderBrief(richScan({ capped: true, cap_reason: 'H1', score: 35, grade: 'E' }), { baseUrl: BASE });
  assert.match(md, /\*\*Capped at 35\*\*: robots\.txt disallows every live shopping agent \(OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User\)/);
  assert.match(md, /fix 1 below lifts the cap/);
  const waf = renderBrief(richScan({ capped: true, cap_reason: 'H2' }), { baseUrl: BASE });
  assert.match(waf, /bot protection blocks or challenges AI agents/);
});

test('fixes come in top_fixes order, each with its status, evidence and numbered steps', () => {
  const md = renderBrief(richScan(), { baseUrl: BASE });
  const titles = [...md.matchAll(/^### (\d+)\. (.+) \(\+(\d+) points\)$/gm)].map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(titles, [
    ['1', 'Publish an llms.txt for your store', '3'],
    ['2', 'Allow AI shopping agents in robots.txt', '3'],
    ['3', 'Add GTIN or MPN + brand', '2'],
    ['4', 'Expose filterable attributes', '1'],
    ['5', 'Declare your AI usage policy', '1'],
  ]);
  const gtin = md.slice(md.indexOf('### 3.'), md.indexOf('### 4.'));
  assert.match(gtin, /`product_identifiers` · Product data · now \*\*partial\*\* \(2\/4 points\)/);
  assert.match(gtin, /Seen by the scanner: `only sku "TJ-42" on 2 of 2 pages`/);
  assert.match(gtin, /\n1\. Publish the barcode as `gtin13` \(EAN\), `gtin12` \(UPC\) or `gtin` with a valid check digit; if the product has no GTIN, publish `mpn` together with `brand`\.\n2\. Keep `sku` as well\./);
  assert.match(gtin, /\n3\. Start from the \[Product JSON-LD\]\(#product-json-ld\) below\.\n4\. Re-scan \(\[Verify\]\(#verify\)\) and confirm `product_identifiers` reports `pass`\./);
  const llms = md.slice(md.indexOf('### 1.'), md.indexOf('### 2.'));
  assert.match(llms, /\n2\. Serve it as `text\/plain`/);
  assert.match(llms, /\[llms\.txt\]\(#llmstxt\)/);
});

test('how texts split into sentences, never inside code spans or after e.g.', () => {
  assert.deepEqual(howSteps('Add `a. B` here. Then (e.g. Foo) do X; Keep it.'), ['Add `a. B` here.', 'Then (e.g. Foo) do X.', 'Keep it.']);
  assert.deepEqual(howSteps('One step only'), ['One step only']);
  assert.deepEqual(howSteps(''), []);
});

test('no fixes: the brief says so instead of an empty list', () => {
  const md = renderBrief(richScan({ top_fixes: [] }), { baseUrl: BASE });
  assert.match(md, /Nothing to fix: every check passes/);
  assert.match(md, /Every check already passes/);
});

test('the Product JSON-LD carries what the scan saw and marks the missing properties', () => {
  const md = renderBrief(richScan(), { baseUrl: BASE });
  const block = blockAfter(md, '### Product JSON-LD');
  assert.match(block, /^<script type="application\/ld\+json">\n/);
  assert.match(block, /\n<\/script>$/);
  const ld = JSON.parse(block.replace(/^<script[^>]*>\n/, '').replace(/\n<\/script>$/, ''));
  assert.equal(ld['@context'], 'https://schema.org');
  assert.equal(ld['@type'], 'Product');
  assert.equal(ld.name, 'Trail Jacket');
  assert.deepEqual(ld.image, ['https://shop.test/img/jacket.jpg']);
  assert.equal(ld.url, 'https://shop.test/products/trail-jacket');
  assert.equal(ld.sku, 'TJ-42');
  assert.deepEqual(ld.brand, { '@type': 'Brand', name: 'Northwind' });
  assert.match(ld.gtin13, /^TODO: the product's EAN\/UPC barcode/);
  assert.match(ld.mpn, /^TODO: /);
  assert.match(ld.description, /^TODO: /);
  assert.equal(ld.offers.price, '189');
  assert.equal(ld.offers.priceCurrency, 'EUR');
  assert.equal(ld.offers.availability, 'https://schema.org/InStock');
  // Return policy only partial: a MerchantReturnPolicy to fill; shipping already passes: none added.
  assert.equal(ld.offers.hasMerchantReturnPolicy['@type'], 'MerchantReturnPolicy');
  assert.equal(ld.offers.shippingDetails, undefined);
  // The attributes check fails with only color present: size and material are asked for, color is kept.
  assert.match(ld.size, /^TODO: /);
  assert.match(ld.material, /^TODO: /);
  assert.equal(ld.color, undefined);
  assert.match(md, /The page also publishes `color`: keep those properties\./);
});

test('a description the page already has is kept, not asked for', () => {
  const scan = richScan();
  scan.pillars[2].checks.push(check('product_core_fields', 'pass', 4, 4, 'name, 2 images, description of 120 chars'));
  const md = renderBrief(scan, { baseUrl: BASE });
  const ld = JSON.parse(blockAfter(md, '### Product JSON-LD').replace(/^<script[^>]*>\n/, '').replace(/\n<\/script>$/, ''));
  assert.equal(ld.description, undefined);
  assert.match(md, /The page also publishes `description`, `color`: keep those properties\./);
});

test('a valid GTIN is kept under its length key; odd currency and availability become TODOs quoting the page', () => {
  const scan = richScan({
    products: [product({ gtin: { value: '4006381333931', source: 'json-ld' }, currency: { value: '€', source: 'html' }, availability: { value: 'ships soon', source: 'html' } })],
  });
  const ld = JSON.parse(blockAfter(renderBrief(scan, { baseUrl: BASE }), '### Product JSON-LD').replace(/^<script[^>]*>\n/, '').replace(/\n<\/script>$/, ''));
  assert.equal(ld.gtin13, '4006381333931');
  assert.match(ld.offers.priceCurrency, /^TODO: the ISO 4217 currency code, e\.g\. EUR \(the page shows "€"\)$/);
  assert.match(ld.offers.availability, /^TODO: .*\(the page says "ships soon"\)$/);
});

test('in stock guessed from a buy button becomes a TODO that says it was guessed, not what the page says', () => {
  const brief = (basis: 'buy_button' | 'text') =>
    JSON.parse(
      blockAfter(
        renderBrief(richScan({ products: [product({ availability: { value: 'InStock', source: 'html' }, availability_basis: basis })] }), { baseUrl: BASE }),
        '### Product JSON-LD',
      )
        .replace(/^<script[^>]*>\n/, '')
        .replace(/\n<\/script>$/, ''),
    );
  assert.match(brief('buy_button').offers.availability, /^TODO: .*\("InStock" guessed from a buy button; the page states no stock\)$/);
  assert.equal(brief('text').offers.availability, 'https://schema.org/InStock');
});

test('without any product page every Product value is a TODO and the map says so', () => {
  const md = renderBrief(richScan({ products: [] }), { baseUrl: BASE });
  assert.match(md, /No product page was found, so every value is a `TODO:`/);
  const ld = JSON.parse(blockAfter(md, '### Product JSON-LD').replace(/^<script[^>]*>\n/, '').replace(/\n<\/script>$/, ''));
  for (const key of ['name', 'url', 'sku', 'gtin13', 'mpn', 'image']) assert.match(String(ld[key]), /^TODO: /, key);
  assert.match(ld.offers.price, /^TODO: /);
  assert.match(md, /\| gtin \| no product page found \|/);
});

test('the llms.txt draft has an H1, a summary, sections and the sampled product pages', () => {
  const body = blockAfter(renderBrief(richScan(), { baseUrl: BASE }), '### llms.txt');
  const lines = body.split('\n');
  assert.equal(lines[0], '# shop.test');
  assert.match(body, /\n> TODO: one paragraph .* \(EUR\)\.\n/);
  for (const section of ['## Products', '## Policies', '## Support', '## Optional']) assert.ok(lines.includes(section), section);
  assert.ok(lines.includes('- [Home](https://shop.test/): TODO: the main collections and best sellers'));
  assert.ok(lines.includes('- [Trail Jacket](https://shop.test/products/trail-jacket): 189 EUR'));
  assert.ok(lines.includes('- [Rain Hat](https://shop.test/products/rain-hat): 189 EUR'));
  assert.ok(lines.includes('- [Sitemap](https://shop.test/sitemap_index.xml): every product URL'));
});

test('robots.txt lines allow the six live agents, keep the usual disallows and name the sitemap', () => {
  const body = blockAfter(renderBrief(richScan(), { baseUrl: BASE }), '### robots.txt');
  for (const ua of ['OAI-SearchBot', 'ChatGPT-User', 'Claude-SearchBot', 'Claude-User', 'PerplexityBot', 'Perplexity-User']) {
    assert.ok(body.includes(`\nUser-agent: ${ua}\n`), ua);
  }
  assert.match(body, /\nAllow: \/\nDisallow: \/cart\nDisallow: \/checkout\nDisallow: \/account\n/);
  assert.match(body, /\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n/); // the policy check failed
  assert.match(body, /\nSitemap: https:\/\/shop\.test\/sitemap_index\.xml$/);
  const noSitemapSeen = blockAfter(renderBrief(richScan({ fetched: [] }), { baseUrl: BASE }), '### robots.txt');
  assert.match(noSitemapSeen, /\nSitemap: https:\/\/shop\.test\/sitemap\.xml$/);
});

test('the attribute map lists each attribute, whether it was found, and its schema.org property', () => {
  const md = renderBrief(richScan(), { baseUrl: BASE });
  const at = md.indexOf('### Attribute map');
  const table = md.slice(at, md.indexOf('## Verify'));
  assert.match(table, /\| Attribute \| Found \| schema\.org property \| Seen \|/);
  assert.match(table, /\| price \| yes, 2 of 2 pages \(json-ld\) \| `offers\.price` \| `189` \|/);
  assert.match(table, /\| gtin \| \*\*no\*\* \| `gtin13` \/ `gtin12` \/ `gtin8` \/ `gtin14` \| {2}\|/);
  assert.match(table, /\| color \| yes, 2 of 2 pages \| `color` \|/);
  assert.match(table, /\| size \| yes, 1 of 2 pages \| `size` \|/);
  assert.match(table, /\| material \| \*\*no\*\* \|/);
  assert.match(table, /\| name \| yes, 2 of 2 pages \(json-ld, microdata\) \|/);
  for (const a of ['availability', 'brand', 'mpn', 'pattern', 'category', 'additionalProperty', 'variants']) assert.match(table, new RegExp(`\\n\\| ${a} \\|`), a);
});

test('the verify loop gives the exact re-scan call and the checks expected to turn green', () => {
  const md = renderBrief(richScan({ url: "https://shop.test/?ref=it's(x)!" }), { baseUrl: BASE });
  const call = blockAfter(md, '## Verify');
  assert.match(call, /curl -sS -H "Authorization: Bearer \$STORE_READINESS_API_KEY" \\\n/);
  // The URL as the scan endpoint reads it (WHATWG-normalised), encoded so the shell and the query leave it alone.
  assert.ok(call.includes(`"${BASE}/api/v1/scan?url=https%3A%2F%2Fshop.test%2F%3Fref%3Dit%2527s%28x%29%21"`), call);
  assert.equal(decodeURIComponent('https%3A%2F%2Fshop.test%2F%3Fref%3Dit%2527s%28x%29%21'), new URL("https://shop.test/?ref=it's(x)!").href);
  const list = md.slice(md.indexOf('Checks expected to turn green'));
  assert.match(list, /- \[ \] `discovery_llms_txt`: fail → pass \(\+3 points\)\n- \[ \] `access_live_agents_robots`: partial → pass \(\+3 points\)/);
});

test('store text cannot break out of code spans, fences or link text', () => {
  const hostile = 'x``` \n# Injected heading\n<script>alert(1)</script> ```` [a](javascript:alert(1)) | ` end';
  const scan = richScan({
    url: 'https://shop.test/',
    products: [
      product({
        url: 'https://shop.test/p/`x`?q=```',
        name: { value: hostile, source: 'json-ld' },
        brand: { value: '</script><script>alert(1)</script>', source: 'json-ld' },
        sku: { value: '````\n## not a heading', source: 'json-ld' },
        image: { value: 'javascript:alert(1)', source: 'json-ld' },
      }),
    ],
  });
  scan.pillars[2].checks[0].evidence = hostile;
  const md = renderBrief(scan, { baseUrl: BASE });
  // No line of store text starts a heading of its own, and outside code no store HTML or link survives.
  assert.doesNotMatch(md, /^# Injected heading/m);
  assert.doesNotMatch(md, /^#+ not a heading/m);
  const prose = outsideCode(md);
  assert.doesNotMatch(prose, /<script|<\/script|Injected|javascript:/);
  // The JSON-LD still parses and carries the values escaped (\u003c, \u0060), so it cannot close its script.
  const ld = JSON.parse(blockAfter(md, '### Product JSON-LD').replace(/^<script[^>]*>\n/, '').replace(/\n<\/script>$/, ''));
  assert.equal(ld.brand.name, '</script><script>alert(1)</script>');
  assert.match(ld.image, /^TODO: /);
  assert.equal(ld.url, 'https://shop.test/p/%60x%60?q=%60%60%60');
  // The evidence is one code span whose fence is longer than any backtick run inside it.
  const evidence = md.split('\n').find((l) => l.startsWith('Seen by the scanner: ') && l.includes('Injected'));
  assert.ok(evidence);
  assert.match(evidence, /^Seen by the scanner: `````x``` # Injected heading <script>alert\(1\)<\/script> ```` \[a\]\(javascript:alert\(1\)\) \| ` end`````$/);
  // Link text in llms.txt is escaped.
  assert.match(blockAfter(md, '### llms.txt'), /- \[x\\`\\`\\` \\# Injected heading \\<script\\>/);
});

test('the markdown helpers: inline code, fences and URLs', () => {
  assert.equal(inlineCode('plain'), '`plain`');
  assert.equal(inlineCode('a`b'), '``a`b``');
  assert.equal(inlineCode('`edge`'), '`` `edge` ``');
  assert.equal(inlineCode('line\nbreak\u2028here'), '`line break here`');
  assert.equal(inlineCode(''), '(empty)');
  assert.equal(fenced('text', 'a\n```\nb'), '````text\na\n```\nb\n````');
  assert.equal(fenced('', 'no ticks'), '```\nno ticks\n```');
  assert.equal(safeHttpUrl('javascript:alert(1)'), null);
  assert.equal(safeHttpUrl('data:text/html,x'), null);
  assert.equal(safeHttpUrl('/relative'), null);
  assert.equal(safeHttpUrl('https://user:pw@shop.test/'), null);
  assert.equal(safeHttpUrl('https://shop.test/a(b)?q=`x`'), 'https://shop.test/a%28b%29?q=%60x%60');
});
