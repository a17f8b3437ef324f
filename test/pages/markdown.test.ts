// Markdown for agents through the real app: `/`, `/index` and `/r/{id}` answer `Accept: text/markdown` with a compact
// Markdown rendering (Vary: Accept, Link to the other representation), browsers keep the HTML, and a hostile
// store's text cannot add markup, links, lines or table cells to the Markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startApp } from '../helpers/start-app.js';
import { fakeReport, saveFakeScan, saveReport } from '../helpers/scans.js';
import { mdText } from '../../pages/markdown.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const BASE = 'http://localhost:3000';
const MD = { accept: 'text/markdown' };
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** Occurrences of `ch` not escaped by a backslash. */
const unescaped = (text: string, ch: string): number => [...text.matchAll(/\\.|./gs)].filter((m) => m[0] === ch).length;

/** A capped report with a pass, a partial and a fail, and two fixes; `evidence` is what the store made us see. */
function report(id: number, evidence: string, url = 'https://shop.test/'): ScanResult {
  const base = fakeReport(id, { host: 'shop.test', score: 35, capped: true });
  return {
    ...base,
    url,
    pillars: [
      {
        id: 'access',
        label: 'Agent access',
        score: 9,
        max: 20,
        checks: [
          { id: 'access_live_agents_robots', label: 'Live agents', status: 'fail', points: 0, max: 6, evidence, title: 'Allow AI shopping agents in robots.txt', why: 'w', hard_block: true },
          { id: 'access_no_bot_wall', label: 'Bot wall', status: 'partial', points: 3, max: 6, evidence: 'agent UA got 429', title: 'Agents are rate-limited', why: 'w', hard_block: true },
          { id: 'access_indexable', label: 'Indexable', status: 'pass', points: 2, max: 2, evidence: 'no noindex anywhere', title: 'Product pages may be indexed', why: 'w', hard_block: false },
        ],
      },
      { id: 'discovery', label: 'Discovery', score: 15, max: 15, checks: [] },
    ],
    top_fixes: [
      { check_id: 'access_live_agents_robots', title: 'Allow AI shopping agents in robots.txt', points: 40, how: 'Add `Allow: /` for\nthe live agents.' },
      { check_id: 'access_no_bot_wall', title: 'Let AI agents past your bot protection', points: 3, how: 'Allow verified bots.' },
    ],
  };
}

test('negotiation: Markdown only when preferred to HTML; both answers carry Vary: Accept and link the other one', async (t) => {
  const app = await startApp(t);
  const stored = await saveFakeScan(app.db, { host: 'shop.test', score: 72 });
  const cases: [string | undefined, 'markdown' | 'html'][] = [
    ['text/markdown', 'markdown'],
    ['text/markdown, text/html;q=0.5', 'markdown'],
    ['text/html;q=0.5, text/markdown', 'markdown'],
    [BROWSER, 'html'],
    ['*/*', 'html'],
    ['application/json', 'html'],
    [undefined, 'html'],
  ];
  for (const path of ['/', '/index', `/r/${stored.scan_id}`]) {
    for (const [accept, expected] of cases) {
      const res = await call(`${app.url}${path}`, accept ? { headers: { accept } } : {});
      assert.equal(res.status, 200, `${path} ${accept}`);
      const type = res.headers.get('content-type') ?? '';
      assert.equal(type, expected === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8', `${path} ${accept}`);
      assert.equal(res.headers.get('vary'), 'Accept, Accept-Encoding', `${path} ${accept}`);
      const link = res.headers.get('link') ?? '';
      const other = expected === 'markdown' ? 'text/html' : 'text/markdown';
      assert.ok(link.includes(`<${BASE}${path}>; rel="alternate"; type="${other}"`), `${path}: ${link}`);
      assert.ok(link.includes(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`), link);
      assert.ok(link.includes(`<${BASE}/openapi.json>; rel="service-desc"`), link);
      assert.ok(link.includes(`<${BASE}/llms.txt>; rel="describedby"`), link);
    }
  }
  // The HTML names its Markdown alternate in <head> as well.
  const html = await call(`${app.url}/r/${stored.scan_id}`);
  assert.match(html.text, new RegExp(`<link rel="alternate" type="text/markdown" href="/r/${stored.scan_id}">`));
});

test('the home page as Markdown: its title as H1, a summary, the top of the index with report links, the documents', async (t) => {
  const app = await startApp(t);
  const top = await saveFakeScan(app.db, { host: 'top.test', score: 90 });
  await saveFakeScan(app.db, { host: 'gone.test', score: 99 });
  await app.db.setDelisted('gone.test', true);
  const md = (await call(`${app.url}/`, { headers: MD })).text;
  const html = (await call(`${app.url}/`)).text;
  const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
  assert.equal(md.split('\n')[0], `# ${title}`);
  assert.match(md.split('\n')[2], /^> Lighthouse for agentic commerce\./);
  assert.ok(md.includes(`| 1 | [top.test](${BASE}/r/${top.scan_id}) | 90 | A |`), md);
  assert.doesNotMatch(md, /gone\.test/);
  for (const doc of ['/llms.txt', '/api/v1', '/openapi.json', '/.well-known/api-catalog', '/auth.md', '/changelog.md']) assert.ok(md.includes(`](${BASE}${doc})`), doc);
  assert.doesNotMatch(md, /<[a-z]/i, 'no HTML');
});

test('the index as Markdown: ranks, scores, grades, verified and report links; filter, pages and bad input', async (t) => {
  const app = await startApp(t);
  const a = await saveFakeScan(app.db, { host: 'a.test', score: 88, vertical: 'pets', agentReady: true });
  const b = await saveFakeScan(app.db, { host: 'b.test', score: 41, capped: false });
  const md = (await call(`${app.url}/index`, { headers: MD })).text;
  assert.equal(md.split('\n')[0], '# The most agent-ready stores');
  assert.match(md, /^> The Store Readiness readiness index: every scanned store ranked by its latest score, 2 stores\./m);
  const today = new Date().toISOString().slice(0, 10);
  assert.ok(md.includes(`| 1 | [a.test](${BASE}/r/${a.scan_id}) | 88 | A | yes | Pets | ${today} |`), md);
  assert.ok(md.includes(`| 2 | [b.test](${BASE}/r/${b.scan_id}) | 41 | D | no | – | ${today} |`), md);
  assert.ok(md.includes(`[Pets](${BASE}/index?vertical=pets)`));

  const pets = await call(`${app.url}/index?vertical=pets`, { headers: MD });
  assert.equal(pets.text.split('\n')[0], '# Pets: the most agent-ready stores');
  assert.doesNotMatch(pets.text, /b\.test/);
  assert.ok((pets.headers.get('link') ?? '').includes(`<${BASE}/index?vertical=pets>; rel="alternate"; type="text/html"`));

  const past = await call(`${app.url}/index?page=3`, { headers: MD });
  assert.match(past.text, /There is no page 3: the index has 1 page\./);
  const bad = await call(`${app.url}/index?vertical=%3Cscript%3E`, { headers: MD });
  assert.equal(bad.status, 400);
  assert.equal(bad.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.match(bad.text, /^# Bad request\n\nUnknown category/);
  assert.doesNotMatch(bad.text, /<script>/);
});

test('a report as Markdown: score, grade, cap, pillars, the checks that need work with evidence, fixes with points', async (t) => {
  const app = await startApp(t);
  const r = report(await app.db.allocateScanId(), 'robots.txt at https://shop.test/robots.txt disallows every live agent at /');
  await saveReport(app.db, r);
  const res = await call(`${app.url}/r/${r.scan_id}`, { headers: MD });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
  const md = res.text;
  const lines = md.split('\n');
  assert.equal(lines[0], '# shop.test: 35/100, grade E');
  assert.match(lines[2], /^> AI-agent readiness report by Store Readiness\. AI shopping agents cannot reliably use this store yet\.$/);
  assert.ok(lines.includes('- Score: 35/100, grade E'));
  assert.ok(lines.some((l) => l.startsWith('- Capped at 35: robots.txt blocks the live AI shopping agents. Fix `access_live_agents_robots` first')), md);
  assert.ok(lines.includes('- Checks: 1 passed, 1 partial, 1 failed'));
  assert.ok(lines.includes(`- JSON: ${BASE}/api/v1/scan/${r.scan_id}.json · agent brief (Pro key): ${BASE}/api/v1/scan/${r.scan_id}/brief.md`));
  assert.ok(lines.includes('| Agent access | 9 / 20 |'));
  assert.ok(lines.includes('| Discovery | 15 / 15 |'));
  const needWork = md.slice(md.indexOf('## Checks that need work'), md.indexOf('## Fixes'));
  assert.ok(needWork.includes('### Agent access'));
  // Each check by its one name (the label), then what was found and the evidence.
  assert.ok(needWork.includes('- **Fail** Live shopping agents allowed in robots.txt (`access\\_live\\_agents\\_robots`, 0/6, caps the score): Allow AI shopping agents in robots.txt. Seen: robots.txt at https://shop.test/robots.txt disallows every live agent at /'), needWork);
  assert.ok(needWork.includes('- **Partial** No bot wall for agent user-agents (`access\\_no\\_bot\\_wall`, 3/6): Agents are rate-limited. Seen: agent UA got 429'), needWork);
  assert.doesNotMatch(needWork, /indexable|### Discovery/i, 'passed checks and clean pillars are left out');
  assert.ok(lines.includes('1. **+40 pts** Allow AI shopping agents in robots.txt (`access\\_live\\_agents\\_robots`): Add `Allow: /` for the live agents.'), md);
  assert.ok(lines.includes('2. **+3 pts** Let AI agents past your bot protection (`access\\_no\\_bot\\_wall`): Allow verified bots.'));
});

test("a hostile store's text stays text: no HTML, no links, no new lines, headings or table cells", async (t) => {
  const app = await startApp(t);
  const hostile = 'x</title><script>alert(1)</script> [click](javascript:alert(1)) ![img](https://evil.test/p.png) | cell | `code` **bold** _it_\n# Injected heading\u2028<img src=x onerror=alert(1)>';
  const r = report(await app.db.allocateScanId(), hostile, `javascript:alert(1)\n| a | b |`);
  await saveReport(app.db, r);
  const md = (await call(`${app.url}/r/${r.scan_id}`, { headers: MD })).text;
  const plain = md.split('\n');
  const evidenceLine = plain.find((l) => l.startsWith('- **Fail**')) ?? '';
  for (const ch of ['<', '>', '[', ']', '(', ')', '|', '`', '_', '!', '#']) {
    const before = evidenceLine.slice(0, evidenceLine.indexOf('0/6'));
    assert.equal(unescaped(evidenceLine, ch) - unescaped(before, ch), ch === ')' ? 1 : 0, `unescaped ${ch} in ${evidenceLine}`);
  }
  assert.ok(!md.includes('\n# Injected heading'), 'no heading injected');
  assert.equal(md.split('\n').filter((l) => l.startsWith('- Store:')).length, 1);
  assert.equal(plain.find((l) => l.startsWith('- Store:')), '- Store: javascript:alert\\(1\\) \\| a \\| b \\|');
  assert.equal(unescaped(md, '<'), 0, 'no raw < anywhere');
  assert.equal(md.split('\n').filter((l) => l.startsWith('#')).length, 5, 'H1 + 3 H2 + one pillar H3');
});

test('mdText: one line, capped, every markup character escaped', () => {
  assert.equal(mdText('a\nb\r\n\tc'), 'a b c');
  assert.equal(mdText('<b>[x](y)</b>'), '\\<b\\>\\[x\\]\\(y\\)\\</b\\>');
  assert.equal(mdText('a|b`c*d_e~f#g!h\\i'), 'a\\|b\\`c\\*d\\_e\\~f\\#g\\!h\\\\i');
  assert.equal(mdText('x'.repeat(500), 10), `${'x'.repeat(9)}…`);
  assert.equal(mdText(null), '');
});

test('unknown, malformed and delisted reports: a Markdown 404 for Markdown clients', async (t) => {
  const app = await startApp(t);
  const stored = await saveFakeScan(app.db, { host: 'gone.test', score: 50 });
  await app.db.setDelisted('gone.test', true);
  for (const path of ['/r/999', '/r/abc', `/r/${stored.scan_id}`]) {
    const res = await call(`${app.url}${path}`, { headers: MD });
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(res.headers.get('vary'), 'Accept, Accept-Encoding');
    assert.match(res.text, /^# Report not found\n/);
    assert.equal((await call(`${app.url}${path}`)).headers.get('content-type'), 'text/html; charset=utf-8');
  }
});
