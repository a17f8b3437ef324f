// One name per check everywhere: the report, its Markdown, the catalogue /checks and each /checks/{id} name a check
// by its label; and our own texts on those pages render their Markdown (`code`) instead of showing backticks.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { runScan } from '../../scan/index.js';
import { saveReport } from '../helpers/scans.js';
import { CHECKS } from '../../scan/checks/registry.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const visibleText = (page: string) => page.replace(/<script[\s\S]*?<\/script>|<pre[\s\S]*?<\/pre>/g, '').replace(/<[^>]+>/g, '');

test('a check has one name on the report, its Markdown, /checks and its own page', async (t) => {
  const store = await startStoreFrom((origin) => ({ ...completeStore(origin), '/llms.txt': { status: 404, body: 'Not found' } }));
  t.after(() => store.close());
  const app = await startApp(t);
  const audit = await runScan(store.url, { allowPrivate: true, maxRequests: 20, timeoutMs: 15_000, baseUrl: app.config.BASE_URL });
  const report: ScanResult = { ...audit, scan_id: 7, report_url: `${app.url}/r/7`, vertical: null, neighbors: [] };
  await saveReport(app.db, report);
  const page = await fetch(`${app.url}/r/7`).then((r) => r.text());
  const markdown = await fetch(`${app.url}/r/7`, { headers: { accept: 'text/markdown' } }).then((r) => r.text());
  const catalogue = await fetch(`${app.url}/checks`).then((r) => r.text());
  for (const check of CHECKS) {
    const name = escape(check.label);
    const item = new RegExp(`<li class="check [^"]*" id="check-${check.id}">[\\s\\S]*?<strong class="check-title">([^<]*)</strong>`).exec(page)?.[1];
    assert.equal(item, name, `${check.id} on the report`);
    assert.ok(catalogue.includes(`<a href="/checks/${check.id}">${name}</a>`), `${check.id} on /checks`);
    const own = await fetch(`${app.url}/checks/${check.id}`).then((r) => r.text());
    assert.ok(own.includes(`<h1>${name}</h1>`), `${check.id} on its page`);
  }
  const llms = CHECKS.find((c) => c.id === 'discovery_llms_txt')!;
  assert.match(markdown, new RegExp(`- \\*\\*Fail\\*\\* ${llms.label} \\(\`discovery\\\\_llms\\\\_txt\``));
});

test('/checks and the check pages render the Markdown of their texts: no raw backticks', async (t) => {
  const app = await startApp(t);
  const catalogue = await fetch(`${app.url}/checks`).then((r) => r.text());
  assert.doesNotMatch(visibleText(catalogue), /`/, 'no backtick is shown on /checks');
  assert.match(catalogue, /<code>\*<\/code>/, 'the `*` group is code');
  for (const check of CHECKS) {
    const own = await fetch(`${app.url}/checks/${check.id}`).then((r) => r.text());
    assert.doesNotMatch(visibleText(own), /`/, `no backtick on /checks/${check.id}`);
  }
});
