// The report leads with the one failure that makes others moot, and orders the other fixes quick wins first: a real
// scan of a client-rendered store (no product page readable without scripts) and a stored report whose quick fix
// has fewer points than two long ones, read through GET /r/{id} and its Markdown.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, getJson } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { jsShellStore } from '../fixtures/stores.js';
import { fakeReport, saveReport } from '../helpers/scans.js';
import type { ScanResult } from '../../schemas/scan-result.js';

/** Does `a` come before `b` in the page's body (the head's meta tags quote the top fix)? */
const before = (page: string, a: string, b: string) => {
  const body = page.slice(Math.max(0, page.indexOf('<main')));
  const i = body.indexOf(a);
  const j = body.indexOf(b);
  assert.ok(i >= 0, `"${a}" is on the page`);
  assert.ok(j >= 0, `"${b}" is on the page`);
  return i < j;
};

test('a client-rendered store: the report starts with the root cause, and its dependent checks read "not assessed" once', async (t) => {
  const store = await startStoreFrom(jsShellStore);
  t.after(() => store.close());
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] } });
  const scan = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(scan.status, 200, JSON.stringify(scan.body).slice(0, 300));
  const report = scan.body as ScanResult;
  assert.equal(report.root_causes?.[0]?.id, 'no_readable_product_page');

  const page = await fetch(`${app.url}/r/${report.scan_id}`).then((r) => r.text());
  assert.ok(before(page, 'Start here', 'Score by pillar'), 'the root cause leads the report');
  assert.match(page, /No product page can be found or read without scripts/);
  assert.match(page, /Fixing it unlocks up to <strong>\+\d+ points<\/strong>/);
  assert.match(page, /Fix: Render product details in the HTML/);
  const found = /Seen:<\/span> no product page found.{100}/s.exec(page)?.[0];
  assert.equal(found, undefined, 'no check fails one by one with "no product page found"');
  assert.match(page, /\d+ checks wait for: <a href="#cause-no_readable_product_page">/);
  assert.match(page, /\d+ not assessed<\/span>/);
  // The product checks are no fixes of their own: "Add Product JSON-LD" is not a fix for a page that has it after scripts.
  assert.doesNotMatch(page, /Add Product JSON-LD to every product page/);

  const markdown = await fetch(`${app.url}/r/${report.scan_id}`, { headers: { accept: 'text/markdown' } }).then((r) => r.text());
  assert.ok(before(markdown, '## Start here: No product page can be found or read without scripts', '## Pillars'));
  assert.match(markdown, /- \*\*Not assessed\*\* Price and currency \(`product\\_price`, 0\/5\): Not assessed: no product page readable without scripts\./);
});

test('quick wins (a few minutes each) come before the biggest wins', async (t) => {
  const app = await startApp(t);
  const report: ScanResult = {
    ...fakeReport(41, { host: 'quick.example', score: 60 }),
    top_fixes: [
      { check_id: 'protocol_commerce_profile', title: 'Publish a UCP profile (or ACP discovery)', points: 5, how: 'Serve /.well-known/ucp.' },
      { check_id: 'protocol_mcp_endpoint', title: 'Expose a storefront MCP server', points: 4, how: 'Offer an MCP endpoint.' },
      { check_id: 'access_live_agents_robots', title: 'Allow AI shopping agents in robots.txt', points: 3, how: 'Add explicit groups.' },
    ],
  };
  await saveReport(app.db, report);
  const page = await fetch(`${app.url}/r/41`).then((r) => r.text());
  assert.ok(before(page, 'Quick wins', 'Then the biggest wins'));
  assert.ok(before(page, 'Allow AI shopping agents in robots.txt', 'Publish a UCP profile (or ACP discovery)'), 'the +3 robots.txt fix of a few minutes comes first');
  assert.ok(before(page, 'Publish a UCP profile (or ACP discovery)', 'Expose a storefront MCP server'), 'the rest by points');
});
