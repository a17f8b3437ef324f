// Fixes a merchant can act on, in Chromium: a real scan of a store whose robots.txt turns the live agents away;
// its fix on the report opens with a plain sentence and an effort, has steps per platform and the developer
// detail, and links to /checks/{id}, where the snippet has a copy button that fills the clipboard. The
// catalogue /checks lists every check, and every check on the report links to its page.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startApp } from '../helpers/start-app.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { robotsBlockedStore } from '../fixtures/stores.js';
import { CHECKS } from '../../scan/checks/registry.js';
import { SHOTS, chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';

test('a fix with platform steps links to its check page, whose snippet has a copy button; /checks lists every check', { timeout: 120_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const shop = await startFixtureStore({});
  t.after(() => shop.close());
  for (const [path, route] of Object.entries(robotsBlockedStore(shop.origin))) shop.setRoute(path, route);
  const app = await startApp(t);
  const context = await openChromium(t, 'srk-checks-');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  const page = await context.newPage();
  const problems = pageProblems(page);

  await page.goto(`${app.url}/`);
  await page.fill('#url', shop.url);
  // A scan on a loaded machine can outlast the click's own wait: wait for the report instead.
  await Promise.all([page.waitForURL(/\/r\/\d+$/, { timeout: 120_000 }), page.click('form.scan-form button[type=submit]', { noWaitAfter: true })]);

  const fix = page.locator('#fix-access_live_agents_robots');
  assert.match((await fix.locator('.fix-plain').textContent()) ?? '', /Let the AI assistants .* Effort: a few minutes/s);
  assert.deepEqual(await fix.locator('.platform-steps summary').allTextContents(), ['Shopify', 'WooCommerce', 'BigCommerce', 'Custom site']);
  await fix.locator('.platform-steps summary:has-text("Shopify")').click();
  assert.match((await fix.locator('.platform-steps details[open] p').textContent()) ?? '', /robots\.txt\.liquid/);
  await fix.locator('summary:has-text("For your developer")').click();
  assert.match((await fix.locator('.for-developer').textContent()) ?? '', /OAI-SearchBot/);
  // Every check on the report links to its own page.
  const checks = page.locator('li.check');
  assert.equal(await page.locator('li.check a.check-more').count(), await checks.count());
  await page.screenshot({ path: join(SHOTS, 'report-fix.png'), fullPage: true });

  await Promise.all([page.waitForURL(`${app.url}/checks/access_live_agents_robots`), fix.locator('a:has-text("Learn more about this check")').click()]);
  assert.equal(await page.textContent('h1'), 'Live shopping agents allowed in robots.txt');
  assert.match((await page.textContent('main')) ?? '', /caps the whole score at 35/);
  await page.click('[data-copy="check-access_live_agents_robots-snippet"]');
  await page.waitForSelector('[data-copy="check-access_live_agents_robots-snippet"]:has-text("Copied")');
  const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
  assert.match(copied, /^User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\n[\s\S]*Allow: \/\n/);
  await page.screenshot({ path: join(SHOTS, 'check-page.png'), fullPage: true });

  await Promise.all([page.waitForURL(`${app.url}/checks`), page.click('nav.breadcrumb a')]);
  assert.equal(await page.locator('ul.check-catalogue li').count(), CHECKS.length);
  const missing = await page.goto(`${app.url}/checks/no_such_check`);
  assert.equal(missing?.status(), 404);
  assert.deepEqual(problems, []);
});
