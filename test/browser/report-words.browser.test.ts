// One meaning per word, in Chromium: an older report says a newer scan exists, shows its numbers and links to it,
// while its own header and badge card keep the older scan's numbers; "Agent-ready" is the score rule (with the
// rule one click away) and "Owner verified" is ownership; the index tags agent-ready stores with that word.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { SHOTS, chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

test('an older report points to the newer scan and keeps its own numbers; the words say one thing each', { timeout: 120_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const app = await startApp(t);
  const older = await saveFakeScan(app.db, { host: 'shop.test', score: 82, createdAt: daysAgo(3) });
  const newer = await saveFakeScan(app.db, { host: 'shop.test', score: 81, createdAt: daysAgo(1) });
  await saveFakeScan(app.db, { host: 'low.test', score: 28 });
  const context = await openChromium(t, 'srk-words-');
  const page = await context.newPage();
  const problems = pageProblems(page);

  await page.goto(`${app.url}/r/${older.scan_id}`);
  const notice = page.locator('[data-testid=newer-scan]');
  assert.ok(await notice.isVisible(), 'the older report says a newer scan exists');
  assert.match((await notice.textContent()) ?? '', /scored 81 \(grade B\)/);
  assert.equal(await page.textContent('[data-testid=score]'), '82', 'the header keeps this scan’s score');
  // The badge card shows this scan's badge (82), drawn into the page, beside the live one.
  const own = await page.getAttribute('[data-testid=scan-badge]', 'src');
  assert.match(own ?? '', /^data:image\/svg\+xml;base64,/);
  assert.match(Buffer.from((own ?? '').split(',')[1], 'base64').toString(), /82 B/);
  assert.equal(await page.evaluate('document.querySelector("[data-testid=scan-badge]").naturalWidth > 0'), true, 'the image renders under the CSP');
  // The words: Agent-ready (with its rule) and Owner verified, never "Agent-ready verified".
  const facts = (await page.textContent('dl.facts')) ?? '';
  assert.doesNotMatch(facts, /Agent-ready verified/);
  assert.match(facts, /Agent-ready\s+Yes/);
  assert.match(facts, /Owner verified\s+No:/);
  await page.click('details.rule summary');
  assert.match((await page.textContent('details.rule')) ?? '', /score 70 or more, not capped/);
  assert.match((await page.textContent('.hero .meta')) ?? '', /Report ID \d+/);
  await page.screenshot({ path: join(SHOTS, 'report-older.png'), fullPage: true });

  await Promise.all([page.waitForURL(`${app.url}/r/${newer.scan_id}`), page.click('[data-testid=newer-scan] a')]);
  assert.equal(await page.locator('[data-testid=newer-scan]').count(), 0, 'the latest report has no notice');
  assert.equal(await page.textContent('[data-testid=score]'), '81');
  assert.equal(await page.locator('[data-testid=scan-badge]').count(), 0, 'the latest report shows the live badge');

  await page.goto(`${app.url}/index`);
  const shopRow = page.locator('table.ranking tr', { hasText: 'shop.test' });
  assert.equal((await shopRow.locator('.tag-verified').textContent())?.trim(), 'agent-ready');
  assert.equal(await page.locator('table.ranking tr', { hasText: 'low.test' }).locator('.tag-verified').count(), 0);
  assert.deepEqual(problems, []);
});
