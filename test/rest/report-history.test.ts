// The report page's certification status, "What changed since the previous scan" and scan history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saveFakeScan } from '../helpers/scans.js';
import { call, startApp } from '../helpers/start-app.js';

const NOW = Date.now();
const daysAgo = (n: number) => new Date(NOW - n * 86_400_000);

test('a report shows what changed since the scan before it, the other scans, and the certification facts', async (t) => {
  const app = await startApp(t);
  const first = await saveFakeScan(app.db, { host: 'shop.test', score: 82, createdAt: daysAgo(3) });
  const second = await saveFakeScan(app.db, { host: 'shop.test', score: 35, capped: true, createdAt: daysAgo(2) });
  const firstPage = await call(`${app.url}/r/${first.scan_id}`, { headers: { accept: 'text/html' } });
  assert.match(firstPage.text, /This is the first scan of this store/);

  const page = await call(`${app.url}/r/${second.scan_id}`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(page.text, /<h2 id="changes-h">What changed since the previous scan<\/h2>/);
  assert.match(page.text, /data-testid="score-change">Score 82 → 35 \(<strong>−47<\/strong>\), grade B → E/);
  const row = /<tr data-check="access_live_agents_robots">([\s\S]*?)<\/tr>/.exec(page.text)?.[1] ?? '';
  assert.match(row, /status-pass">pass<[\s\S]*status-fail">fail<[\s\S]*6 → 0 of 6/);
  assert.match(page.text, new RegExp(`<a href="/r/${first.scan_id}">Report ID ${first.scan_id}</a>`));
  assert.match(page.text, /<span class="tag">this report<\/span>/);
  assert.match(page.text, /data-testid="owner-verified">No: the store's owner has not proved ownership here yet/);
  assert.doesNotMatch(page.text, /data-testid="newer-scan"/, 'the latest report has no newer-scan notice');
  // The older report says a newer scan exists, with its numbers, and links to it.
  assert.match(firstPage.text, new RegExp(`data-testid="newer-scan"[\\s\\S]*scored <strong>35</strong> \\(grade E\\)[\\s\\S]*<a class="button" href="/r/${second.scan_id}">See the latest report</a>`));
  assert.match(page.text, /data-testid="agent-ready-verified">No:/);
});

test('an agent-ready latest scan shows its validity date; a verified owner shows since when', async (t) => {
  const app = await startApp(t);
  const scan = await saveFakeScan(app.db, { host: 'ready.test', score: 90, createdAt: daysAgo(10) });
  await app.db.monitoring.putClaim({ accountId: 'acct_1', host: 'ready.test', origin: 'https://ready.test', token: 't', createdAt: daysAgo(5), verifiedAt: null, method: null });
  await app.db.monitoring.markVerified('acct_1', 'ready.test', daysAgo(4), 'meta');
  const page = await call(`${app.url}/r/${scan.scan_id}`, { headers: { accept: 'text/html' } });
  const until = new Date(daysAgo(10).getTime() + 90 * 86_400_000).toISOString().slice(0, 10);
  assert.match(page.text, new RegExp(`data-testid="agent-ready-verified">Yes, valid until <time datetime="[^"]+">${until}</time>`));
  assert.match(page.text, new RegExp(`data-testid="owner-verified">Owner verified since <time datetime="[^"]+">${daysAgo(4).toISOString().slice(0, 10)}</time>`));
  // /verify/{host} leads to this page, which carries the facts.
  const verify = await call(`${app.url}/verify/ready.test`);
  assert.equal(verify.headers.get('location'), `http://localhost:3000/r/${scan.scan_id}`);
});
