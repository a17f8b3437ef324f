// In Chromium: a scan from the home form before signing in leaves a cookie the browser keeps as the service sets
// it (HttpOnly, Lax, Secure, a week); after sign-in the overview offers the scan, "Add them to my account" adds it
// and the notice says so, the cookie is gone and the scan is on the scans page.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { startCompleteStore } from '../fixtures/stores.js';
import { chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';

test('a scan before sign-in is offered on the overview and added by one button', { timeout: 180_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const inbox = await startInbox(t);
  const shop = await startCompleteStore(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const context = await openChromium(t, 'srk-before-sign-in-');
  const page = await context.newPage();
  const problems = pageProblems(page);

  await page.goto(`${app.url}/`);
  await page.fill('#url', shop.url);
  await Promise.all([page.waitForURL(/\/r\/\d+$/, { timeout: 120_000 }), page.click('form.scan-form button[type=submit]', { noWaitAfter: true })]);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const [cookie] = (await context.cookies(app.url)).filter((c) => c.name === '__Host-sr_scans_before_sign_in');
  assert.ok(cookie, 'the browser kept the cookie');
  assert.deepEqual([cookie.httpOnly, cookie.sameSite, cookie.secure, cookie.path], [true, 'Lax', true, '/']);
  const days = (cookie.expires * 1000 - Date.now()) / 86_400_000;
  assert.ok(days > 6.9 && days <= 7, `about a week (${days.toFixed(2)} days)`);

  await page.goto(`${app.url}/console`);
  await page.fill('#email', 'early@shop.test');
  await page.click('main button[type=submit]');
  await page.waitForSelector('text=Check your mail');
  await page.goto(await inbox.nextLink('early@shop.test'));
  await Promise.all([page.waitForURL(`${app.url}/console`), page.click('main button[type=submit]')]);

  const offer = page.locator('[data-testid="scans-before-sign-in"]');
  assert.equal(await offer.locator('h2').textContent(), 'Scans from this browser before you signed in');
  assert.deepEqual(await offer.locator('tr[data-scan-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-scan-id'))), [String(id)]);
  assert.match((await offer.locator('tr[data-scan-id] .store-host').textContent()) ?? '', /^127\.0\.0\.1(:\d+)?$/);
  await Promise.all([page.waitForURL(`${app.url}/console?attached=1`), offer.locator('button:has-text("Add them to my account")').click()]);

  assert.equal(await page.locator('.alert-ok[role=status]').textContent(), '1 scan from this browser is now in your account.');
  assert.equal(await offer.count(), 0, 'nothing left to offer');
  assert.deepEqual((await context.cookies(app.url)).filter((c) => c.name === '__Host-sr_scans_before_sign_in'), [], 'the cookie is gone');
  await page.goto(`${app.url}/console/scans`);
  assert.equal(await page.locator(`tr[data-scan-id="${id}"]`).count(), 1);
  assert.deepEqual(problems, []);
});
