// The console end to end in Debian's Chromium with real mail (smtp-server on loopback, read with mailparser):
// sign in from the link in the mail, create a key, use it for POST /api/v1/reports and a scan, find that scan
// on the scans page with its score, see usage equal to the RateLimit headers, revoke the key and get 401.
// Without Chromium the test skips with a message, except under CI=true where it fails.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { call, startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { startCompleteStore } from '../fixtures/stores.js';
import { SHOTS, chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';


/** The `r` (remaining) of each policy in a RateLimit header: `"scan"; r=29; t=3599, "pro-30d"; r=999; t=…`. */
function remaining(header: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of (header ?? '').split(',')) {
    const m = /^\s*"([^"]+)"\s*;.*\br=(\d+)/.exec(item);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

test('the console in Chromium: mail link, key, scan, scans page, usage = RateLimit, revoke → 401', { timeout: 180_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const inbox = await startInbox(t);
  const shop = await startCompleteStore(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });

  const context = await openChromium(t, 'srk-console-chromium-');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  const page = await context.newPage();
  const problems = pageProblems(page);

  // Signed out, the console sends us to the sign-in form.
  await page.goto(`${app.url}/console`);
  assert.match(page.url(), /\/console\/sign-in$/);
  await page.fill('#email', 'owner@shop.test');
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Check your mail');
  await page.screenshot({ path: join(SHOTS, 'console-sign-in-sent.png'), fullPage: true });

  // The link from the mail shows a confirm page; its button signs in.
  const link = await inbox.nextLink('owner@shop.test');
  await page.goto(link);
  assert.equal(await page.textContent('h1'), 'Sign in as owner@shop.test?');
  await Promise.all([page.waitForURL(`${app.url}/console`), page.click('button[type=submit]')]);
  assert.match((await page.textContent('.console-who')) ?? '', /owner@shop\.test/);

  // A key, shown once, copied with the button.
  await page.goto(`${app.url}/console/keys`);
  await page.fill('#name', 'CI pipeline');
  await page.click('form[action="/console/keys"] button[type=submit]');
  const key = await page.inputValue('#new-key-value');
  assert.match(key, /^srk_/);
  await page.click('[data-copy="new-key-value"]');
  await page.waitForSelector('[data-copy="new-key-value"]:has-text("Copied")');
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), key);
  await page.screenshot({ path: join(SHOTS, 'console-keys-new.png'), fullPage: true });
  await page.reload(); // the browser sends the form again: no second key, and the key is not shown again
  assert.equal(await page.$('#new-key-value'), null, 'the key is shown only once');
  assert.match((await page.textContent('[role=alert]')) ?? '', /already sent/);
  assert.equal(await page.locator('td.key-state:has-text("active")').count(), 1);

  // The key works on the API: a bulk read and a scan, linked to this account.
  const auth = { authorization: `Bearer ${key}` };
  const bulk = await call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"hosts":["nowhere.test"]}' });
  assert.equal(bulk.status, 200);
  const scan = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.origin + '/')}`, { headers: auth });
  assert.equal(scan.status, 200, scan.text);
  const { scan_id: scanId, score } = scan.body as { scan_id: number; score: number };
  const afterScan = remaining(scan.headers.get('ratelimit'));
  assert.equal(afterScan.scan, 29);
  assert.equal(afterScan['pro-30d'], 999);

  // The scans page lists it with its score.
  await page.goto(`${app.url}/console/scans`);
  const row = page.locator(`tr[data-scan-id="${scanId}"]`);
  assert.equal((await row.locator('td.score').textContent())?.trim(), String(score));
  assert.equal(await row.locator(`a[href="/r/${scanId}"]`).count(), 1);
  await page.screenshot({ path: join(SHOTS, 'console-scans.png'), fullPage: true });

  // Usage on the overview equals what the limiter tells the next call (a refused call reports without counting).
  await page.goto(`${app.url}/console`);
  const next = await call(`${app.url}/api/v1/scan?url=ftp%3A%2F%2Fx.test%2F`, { headers: auth });
  assert.equal(next.status, 400);
  const told = remaining(next.headers.get('ratelimit'));
  assert.equal(Number(await page.textContent('#usage-hour .usage-remaining')), told.scan);
  assert.equal(Number(await page.textContent('#usage-30d .usage-remaining')), told['pro-30d']);
  assert.equal(Number(await page.textContent('#usage-hour .usage-used')), 1);
  await page.screenshot({ path: join(SHOTS, 'console-overview.png'), fullPage: true });

  // Revoke, with the confirmation step; the key answers 401 at once.
  await page.goto(`${app.url}/console/keys`);
  await page.click('a:has-text("Revoke")');
  await page.waitForSelector('text=Every call made with it will be refused');
  await Promise.all([page.waitForURL(`${app.url}/console/keys`), page.click('button:has-text("Revoke key")')]);
  assert.match((await page.textContent('td.key-state')) ?? '', /revoked/);
  const refused = await call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"hosts":["nowhere.test"]}' });
  assert.equal(refused.status, 401);

  // The report page's brief button opens the brief for the signed-in person; its download is the API's Markdown.
  await page.goto(`${app.url}/r/${scanId}`);
  await Promise.all([page.waitForURL(`${app.url}/console/brief/${scanId}`), page.click('a:has-text("Agent brief (Pro)")')]);
  const [brief] = await Promise.all([page.waitForEvent('download'), page.click('a:has-text("Download the Markdown")')]);
  assert.equal(brief.url(), `${app.url}/api/v1/scan/${scanId}/brief.md`);
  assert.match(readFileSync((await brief.path())!, 'utf8'), /^# Agent brief/);

  assert.deepEqual(problems, [], 'no script errors and no CSP refusals on console pages');
});
