// The console as a new merchant meets it, in Chromium: the overview leads through claim → monitor → webhook,
// removing a webhook endpoint asks first (saying what goes with it) and confirms afterwards, a new key has the
// focus, the account's delete button is styled as dangerous and says what it removes, and on a phone the
// tables scroll inside their frame rather than the page.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { SHOTS, chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';

test('console polish: getting started, webhook removal with confirmation, focus on the new key, danger styling', { timeout: 120_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const context = await openChromium(t, 'srk-polish-');
  const page = await context.newPage();
  const problems = pageProblems(page);

  await page.goto(`${app.url}/console`);
  await page.fill('#email', 'owner@shop.test');
  await page.click('main button[type=submit]');
  await page.waitForSelector('text=Check your mail');
  await page.goto(await inbox.nextLink('owner@shop.test'));
  await Promise.all([page.waitForURL(`${app.url}/console`), page.click('main button[type=submit]')]);

  // A new account is led through the three steps, in order, none done yet.
  const steps = page.locator('[data-testid=getting-started] li');
  assert.deepEqual(await steps.locator('a').allTextContents(), ['Claim your store', 'Monitor it', 'Get told by webhook']);
  assert.equal(await page.locator('[data-testid=getting-started] li.step-done').count(), 0);
  assert.match((await page.textContent('#usage-hour')) ?? '', /starts again in (1 minute|\d+ minutes)\./);
  assert.doesNotMatch((await page.textContent('#usage-hour')) ?? '', /\b1 minutes\b/);

  // Add an endpoint, then remove it: a confirmation page first, "Keep it" changes nothing.
  await page.goto(`${app.url}/console/webhooks`);
  await page.fill('#url', 'http://127.0.0.1:9/hooks');
  await page.click('button:has-text("Add endpoint")');
  await page.waitForSelector('[data-testid="webhook-secret"]');
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  await page.goto(`${app.url}/console`);
  assert.equal(await page.locator('[data-testid=getting-started] li.step-done a').textContent(), 'Get told by webhook');
  const [endpoint] = await app.db.monitoring.listEndpoints(account.id);
  await page.goto(`${app.url}/console/webhooks/${endpoint.id}`);
  await Promise.all([page.waitForURL(`${app.url}/console/webhooks/${endpoint.id}/delete`), page.click('a:has-text("Remove endpoint")')]);
  const confirm = (await page.textContent('main')) ?? '';
  assert.match(confirm, /Remove the endpoint http:\/\/127\.0\.0\.1:9\/hooks\?/);
  assert.match(confirm, /pending|waiting/);
  assert.match(confirm, /signing secret and its log of 0 deliveries are deleted/);
  assert.match(confirm, /cannot be undone/);
  const danger = await page.evaluate(`getComputedStyle(document.querySelector('main form button.button-danger')).backgroundColor`);
  assert.equal(danger, 'rgb(153, 27, 27)', 'the confirming button is red (--fail)');
  await page.screenshot({ path: join(SHOTS, 'console-webhook-remove.png'), fullPage: true });
  await Promise.all([page.waitForURL(`${app.url}/console/webhooks/${endpoint.id}`), page.click('a:has-text("Keep it")')]);
  assert.equal((await app.db.monitoring.listEndpoints(account.id)).length, 1, 'keeping it changes nothing');
  await page.click('a:has-text("Remove endpoint")');
  await Promise.all([page.waitForURL(`${app.url}/console/webhooks?removed=1`), page.click('main form button:has-text("Remove endpoint")')]);
  assert.match((await page.textContent('.alert-ok')) ?? '', /The endpoint was removed/);
  assert.equal((await app.db.monitoring.listEndpoints(account.id)).length, 0);
  assert.equal(await page.locator('table.console-webhooks').count(), 0);

  // A new key has the focus, so it can be copied at once.
  await page.goto(`${app.url}/console/keys`);
  await page.fill('#name', 'CI pipeline');
  await page.click('form[action="/console/keys"] button[type=submit]');
  await page.waitForSelector('#new-key-value');
  assert.equal(await page.evaluate('document.activeElement && document.activeElement.id'), 'new-key-value');
  // Text fields are styled, not the browser's 20 px default.
  const height = await page.evaluate<number>(`document.querySelector('#name').getBoundingClientRect().height`);
  assert.ok(height >= 40, `the name field is ${height}px tall`);

  // The account page: deleting is red and says what goes with the account.
  await page.goto(`${app.url}/console/account`);
  const zone = (await page.textContent('.danger-zone')) ?? '';
  assert.match(zone, /store claims/);
  assert.match(zone, /monitors/);
  assert.match(zone, /webhook endpoints/);
  assert.notEqual(
    await page.evaluate(`getComputedStyle(document.querySelector('.danger-zone button')).backgroundColor`),
    await page.evaluate(`getComputedStyle(document.querySelector('form[action="/console/sign-out-everywhere"] button')).backgroundColor`),
    '"Delete my account" does not look like "Sign out everywhere"',
  );

  // On a phone the keys table scrolls in its frame; the page itself does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${app.url}/console/keys`);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
  await page.screenshot({ path: join(SHOTS, 'console-keys-mobile.png'), fullPage: true });
  assert.deepEqual(problems, []);
});
