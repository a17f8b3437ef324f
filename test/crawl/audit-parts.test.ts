// The pure parts of a deep audit: the interval, the sample, the page structure and templates, Retry-After, the
// Crawl-delay of robots.txt, the CSV's formula guard, the plan's discovery and its politeness, and the result's
// findings and changes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'parse5';
import { wilsonInterval } from '../../crawl/audits/interval.js';
import { evenSample, planAudit } from '../../crawl/audits/plan.js';
import { retryAfterMs } from '../../crawl/pause.js';
import { auditCsv } from '../../crawl/audits/csv.js';
import { computeResult, urlPattern, type AuditedPage } from '../../crawl/audits/result.js';
import { groupByTemplate, similarity, structureSignature } from '../../scan/documents/page-structure.js';
import { AUDIT_FACTS, type PageAudit } from '../../scan/page-audit.js';
import { readInline } from '../../scan/parser-threads/page-pool.js';
import { okResource, robotsFrom } from '../helpers/artifacts.js';
import type { FetchOptions } from '../../outbound/fetch.js';

const allFacts = (missing: string[] = []) => Object.fromEntries(AUDIT_FACTS.map((f) => [f, !missing.includes(f)])) as PageAudit['facts'];
function page(url: string, structure: number[], missing: string[] = []): AuditedPage {
  return { url, audit: { url, status: 200, error: null, product: true, facts: allFacts(missing), reasons: Object.fromEntries(missing.map((f) => [f, `no ${f}`])), name: 'Item', structure } };
}

describe('deep audit parts', () => {
  it('the Wilson interval with the finite-population correction: inside 0–100, narrower as the sample nears the whole, none for the whole', () => {
    const small = wilsonInterval(150, 200, 2000)!;
    assert.ok(small.low < 75 && small.high > 75, JSON.stringify(small));
    assert.ok(Math.abs(small.low - 68.9) < 0.6 && Math.abs(small.high - 80.4) < 0.6, `textbook Wilson 75 % of 200 is about 68.6–80.5, a little narrower with the correction: ${JSON.stringify(small)}`);
    const large = wilsonInterval(1350, 1800, 2000)!;
    assert.ok(large.high - large.low < small.high - small.low);
    assert.deepEqual(wilsonInterval(0, 200, 2000)!.low, 0);
    assert.equal(wilsonInterval(200, 200, 2000)!.high, 100);
    assert.equal(wilsonInterval(10, 200, 200), null);
  });

  it('the sample: one draw per even stretch, repeatable, no aliasing with a rotating catalog', () => {
    const list = Array.from({ length: 2000 }, (_, i) => i);
    const a = evenSample(list, 200, 'aud_x');
    assert.deepEqual(a, evenSample(list, 200, 'aud_x'), 'the same seed, the same sample');
    assert.notDeepEqual(a, evenSample(list, 200, 'aud_y'));
    assert.ok(a.every((v, i) => v >= i * 10 && v < (i + 1) * 10), 'one from each stretch, in order');
    const perTemplate = [0, 1, 2, 3].map((k) => a.filter((v) => v % 4 === k).length);
    assert.ok(perTemplate.every((n) => n > 25), `every template of a four-way rotation is sampled: ${perTemplate}`);
    assert.deepEqual(evenSample([1, 2, 3], 5, 's'), [1, 2, 3]);
  });

  it('page structure: pages of one template are alike whatever their text and ids; templates group them', () => {
    const sig = (html: string) => structureSignature(parse(html));
    const product = (n: number, text: string) => `<html><body class="p-${n}"><main class="pdp item-${n}"><h1>${text}</h1><div class="price">€${n}</div><ul>${'<li class="spec">x</li>'.repeat(n % 3 + 1)}</ul></main></body></html>`;
    const other = `<html><body><table class="grid"><tr><td class="cell"><img></td><td><h2>Blog</h2><p>text</p></td></tr></table><footer class="site"><nav><a>1</a></nav></footer></body></html>`;
    assert.equal(similarity(sig(product(1, 'A')), sig(product(1234, 'Bbb'))), 1);
    assert.ok(similarity(sig(product(1, 'A')), sig(other)) < 0.3);
    assert.deepEqual(groupByTemplate([sig(product(1, 'a')), sig(other), sig(product(2, 'b')), null]), [0, 1, 0, -1]);
    assert.equal(sig(product(1, 'a')).length, 32);
  });

  it('Retry-After in seconds or as a date, a minute when absent, at most an hour; only for 429 and 503', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    const answer = (status: number, retry?: string) => okResource('https://s.example/p', '', { status, headers: retry ? { 'retry-after': retry } : {} });
    assert.equal(retryAfterMs(answer(429, '7'), now), 7000);
    assert.equal(retryAfterMs(answer(503, 'Wed, 01 Jan 2025 00:00:30 GMT'), now), 30_000);
    assert.equal(retryAfterMs(answer(429), now), 60_000);
    assert.equal(retryAfterMs(answer(429, '999999'), now), 3_600_000);
    assert.equal(retryAfterMs(answer(500, '5'), now), null);
    assert.equal(retryAfterMs(answer(200), now), null);
  });

  it('robots.txt Crawl-delay: the scanner\'s own group, else *', () => {
    const robots = robotsFrom('User-agent: *\nCrawl-delay: 2\nDisallow: /x\n\nUser-agent: store-readiness\nCrawl-delay: 0.5\nAllow: /\n');
    assert.equal(robots.crawlDelay('store-readiness'), 0.5);
    assert.equal(robots.crawlDelay('OtherBot'), 2);
    assert.equal(robotsFrom('User-agent: *\nDisallow:\n').crawlDelay('store-readiness'), null);
  });

  it('the CSV: one row a page, facts as yes/no, a formula-looking cell defused', () => {
    const sig = Array(32).fill(1);
    const evil = page('https://s.example/p/1', sig, ['price']);
    evil.audit!.name = '=HYPERLINK("http://evil.example")';
    const csv = auditCsv([evil, { url: 'https://s.example/p/2', audit: null }]);
    const lines = csv.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[1], /'=HYPERLINK/);
    assert.match(lines[1], /,no,/);
    assert.match(lines[2], /not read yet/);
  });

  it('the result: one finding per template that misses facts; changes since the previous audit', () => {
    const t1 = Array(32).fill(1);
    const t2 = Array(32).fill(2);
    const before = [page('https://s.example/a/1', t1), page('https://s.example/b/1', t2, ['brand']), page('https://s.example/b/2', t2, ['brand'])];
    const first = computeResult(before, 3, null);
    assert.deepEqual(first.findings.map((f) => [f.url_pattern, f.pages_failing, f.of, f.missing.map((m) => m.fact)]), [['/b/*', 2, 2, ['brand']]]);
    assert.equal(first.sampled, false);
    assert.ok(first.coverage.every((c) => c.interval === null));
    const now = [page('https://s.example/a/1', t1, ['price']), page('https://s.example/b/1', t2), page('https://s.example/b/2', t2, ['brand'])];
    const second = computeResult(now, 3, { id: 'aud_prev', result: first, pages: before });
    assert.deepEqual(second.changes?.newly_failing, [{ url: 'https://s.example/a/1', facts: ['price'] }]);
    assert.equal(second.changes?.fixed, 1);
    assert.equal(second.changes?.coverage.find((c) => c.fact === 'brand')?.change, 33.4);
    assert.equal(urlPattern(['https://s.example/shoes/a', 'https://s.example/shoes/b-2']), '/shoes/*');
  });

  it('the plan: robots rules and Crawl-delay, sitemap index to product URLs, spaced requests, a sample', async () => {
    const root = new URL('https://s.example/');
    const bodies: Record<string, string> = {
      'https://s.example/robots.txt': 'User-agent: *\nCrawl-delay: 3\nDisallow: /private/\nSitemap: https://s.example/index.xml\n',
      'https://s.example/index.xml': '<sitemapindex><sitemap><loc>https://s.example/products.xml</loc></sitemap><sitemap><loc>https://other.example/x.xml</loc></sitemap></sitemapindex>',
      'https://s.example/products.xml': `<urlset>${Array.from({ length: 30 }, (_, i) => `<url><loc>https://s.example/products/item-${i}</loc></url>`).join('')}<url><loc>https://s.example/private/products/hidden</loc></url><url><loc>https://s.example/cart/products/x</loc></url></urlset>`,
    };
    const asked: string[] = [];
    const pauses: number[] = [];
    const plan = await planAudit(root, 1000, 10, {
      fetch: async (url: string, _o: FetchOptions) => (asked.push(url), bodies[url] ? okResource(url, bodies[url]) : okResource(url, 'nope', { status: 404 })),
      pause: async (ms) => void pauses.push(ms),
      read: readInline,
    }, 'aud_seed');
    assert.deepEqual(asked, ['https://s.example/robots.txt', 'https://s.example/index.xml', 'https://s.example/products.xml']);
    assert.deepEqual(pauses, [3000, 3000], 'each request after the first waits the Crawl-delay (longer than the minimum)');
    assert.deepEqual([plan.found, plan.urls.length, plan.delayMs], [30, 10, 3000]);
    assert.ok(plan.urls.every((u) => /\/products\/item-\d+$/.test(u)));
  });
});
