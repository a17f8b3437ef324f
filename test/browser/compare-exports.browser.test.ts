// In Chromium, over real HTTP: three loopback stores scanned through the API, then compared on /compare (their
// differences shown and marked, axe-core clean), reached from a report's "Compare with…"; the report's CSV
// downloads opened with a CSV parser (one row per check, one per scan); and the report printed: no navigation or
// buttons on paper, collapsed fixes open, and a PDF of it.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { getJson, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { brochureStore, completeStore, robotsBlockedStore } from '../fixtures/stores.js';
import { SHOTS, chromiumAvailable, describeViolations, openChromium, pageProblems, seriousViolations } from '../helpers/browser.js';
import { RUBRIC } from '../../scan/checks/rubric.js';

test('compare three scanned stores, download the CSVs, print the report', { timeout: 300_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '1' }, { selfBaseUrl: true });
  const stores = await Promise.all([completeStore, robotsBlockedStore, brochureStore].map((build) => startStoreFrom(build)));
  t.after(() => Promise.all(stores.map((s) => s.close())));
  const scans: { host: string; scan_id: number; score: number }[] = [];
  for (const store of stores) {
    const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    scans.push(res.body);
  }
  const hosts = scans.map((s) => s.host);

  const context = await openChromium(t, 'srk-compare-');
  const page = await context.newPage();
  const problems = pageProblems(page);
  const style = (selector: string, property: string) =>
    page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`);

  // From the first store's report, "Compare with…" opens the form with its host; add the other two.
  await page.goto(`${app.url}/r/${scans[0].scan_id}`);
  await Promise.all([page.waitForURL(/\/compare\?hosts=/), page.click('a:has-text("Compare with…")')]);
  assert.equal(await page.inputValue('#compare-hosts'), `${hosts[0]}, `);
  await page.fill('#compare-hosts', hosts.join(', '));
  await Promise.all([page.waitForURL(/\/compare\?hosts=.+%2C/), page.click('form.compare-form button[type=submit]')]);

  // The summary: each store's score in its own column, the best one marked.
  const headers = await page.$$eval('[data-testid=compare-summary] thead th[scope=col]', (ths) => ths.map((th) => th.textContent?.trim()));
  assert.deepEqual(headers, ['Store', ...hosts]);
  const scores = await page.$$eval('[data-testid=compare-summary] td.compare-score strong', (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(scores, scans.map((s) => s.score));
  assert.match((await page.textContent('td.compare-best')) ?? '', new RegExp(`${Math.max(...scores)}.*best`));

  // Every check is a row; the rows where the stores differ are marked in words, and the marks match the statuses.
  const rows = await page.$$eval('[data-testid=compare-checks] tbody tr[data-check]', (trs) =>
    trs.map((tr) => ({
      id: tr.getAttribute('data-check'),
      marked: tr.classList.contains('differs') && (tr.querySelector('.tag-differs')?.textContent ?? '') === 'differs',
      statuses: [...tr.querySelectorAll('td .status')].map((s) => s.textContent?.replace(/[^A-Za-z]/g, '')),
    })),
  );
  assert.equal(rows.length, RUBRIC.length);
  for (const row of rows) assert.equal(row.marked, new Set(row.statuses).size > 1, `${row.id}: ${row.statuses.join(' ')}`);
  const robots = rows.find((r) => r.id === 'access_live_agents_robots')!;
  assert.deepEqual(robots.statuses, ['Pass', 'Fail', 'Pass']);
  const differing = rows.filter((r) => r.marked).length;
  assert.ok(differing >= 3, `the stores differ on several checks (${differing})`);
  assert.match((await page.textContent('.compare-legend')) ?? '', new RegExp(`${differing} of ${RUBRIC.length} checks differ`));
  const differsBg = await style('tr.differs', 'backgroundColor');
  const sameBg = await style('tr.same', 'backgroundColor');
  assert.notEqual(differsBg, sameBg, 'differing rows are highlighted');
  assert.deepEqual(await seriousViolations(page), [], describeViolations('/compare', await seriousViolations(page)));
  await page.screenshot({ path: join(SHOTS, 'compare.png'), fullPage: true });

  // Only the differences.
  await Promise.all([page.waitForURL(/only=differences/), page.click('a:has-text("Show only the differences")')]);
  assert.equal(await page.locator('[data-testid=compare-checks] tbody tr[data-check]').count(), differing);
  assert.equal(await page.locator('tr.same').count(), 0);

  // The CSV downloads of a report, opened with a CSV parser.
  await page.goto(`${app.url}/r/${scans[1].scan_id}`);
  const [checksCsv] = await Promise.all([page.waitForEvent('download'), page.click('a:has-text("every check as CSV")')]);
  const checkRows = parse(readFileSync((await checksCsv.path())!), { bom: true, columns: true }) as Record<string, string>[];
  assert.equal(checksCsv.suggestedFilename(), `report-${scans[1].scan_id}.csv`);
  assert.deepEqual(checkRows.map((r) => r.check_id).sort(), RUBRIC.map((r) => r.id).sort(), 'one row per check');
  assert.equal(checkRows.find((r) => r.check_id === 'access_live_agents_robots')?.status, 'fail');
  const [historyCsv] = await Promise.all([page.waitForEvent('download'), page.click('a:has-text("score history as CSV")')]);
  const historyRows = parse(readFileSync((await historyCsv.path())!), { bom: true, columns: true }) as Record<string, string>[];
  assert.deepEqual(historyRows.map((r) => Number(r.scan_id)), [scans[1].scan_id]);

  // Printed: no header, footer, buttons or forms; the collapsed fixes open; a PDF of a few pages.
  await page.emulateMedia({ media: 'print' });
  for (const selector of ['.site-header', '.site-footer', 'p.actions', '.snippet']) {
    assert.equal(await style(selector, 'display'), 'none', selector);
  }
  if (await page.$('details.more-fixes')) {
    assert.ok(await page.$eval('details.more-fixes ol', (el) => el.getBoundingClientRect().height > 0), 'the extra fixes print');
  }
  assert.ok(await page.$eval('#checks-h', (el) => el.getBoundingClientRect().height > 0), 'the checks print');
  const pdf = await page.pdf({ format: 'A4', path: join(SHOTS, 'report-print.pdf') });
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  await page.emulateMedia({ media: 'screen' });
  assert.notEqual(await style('.site-header', 'display'), 'none', 'on screen the navigation is back');

  assert.deepEqual(problems, [], 'no script errors and no CSP refusals');
});
