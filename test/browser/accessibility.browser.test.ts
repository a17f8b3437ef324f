// axe-core in Chromium, every rule on (WCAG 2.2 AA's target-size and AAA's enhanced contrast included), on every
// public page a merchant meets and every console page, filled with a real scan, a verified store, a monitor, a
// webhook endpoint and a key so the tables are there: no serious or critical violation. Then the keyboard: the first
// Tab lands on a visible skip link, and the focus ring stands out at least 3:1 against what it is drawn on, in the
// dark header and on white.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { saveFakeScan } from '../helpers/scans.js';
import { verifiedHome } from '../helpers/fixture-store.js';
import { startCompleteStore } from '../fixtures/stores.js';
import { chromiumAvailable, describeViolations as describe, openChromium, pageProblems, seriousViolations } from '../helpers/browser.js';

/** WCAG contrast of a CSS rgb()/rgba() colour drawn over an opaque one (a translucent ring is blended first). */
function contrast(over: string, background: string): number {
  const parts = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const bg = parts(background).slice(0, 3);
  const [r, g, b, alpha = 1] = parts(over);
  const fg = [r, g, b].map((v, i) => v * alpha + bg[i] * (1 - alpha));
  const lum = ([red, green, blue]: number[]) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(red) + 0.7152 * f(green) + 0.0722 * f(blue);
  };
  const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

/** The focused element's outline colour and the first opaque background behind it. */
async function focusColours(page: Page): Promise<{ outline: string; width: number; background: string; text: string }> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    let node = el.parentElement, background = 'rgb(255, 255, 255)';
    for (; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      if (bg && !/rgba\\(.*, 0\\)$|transparent/.test(bg)) { background = bg; break; }
    }
    return { outline: style.outlineColor, width: parseFloat(style.outlineWidth), background, text: el.textContent.trim() };
  })()`);
}

test('axe-core finds no serious or critical violation on the public and console pages; skip link and focus ring', { timeout: 240_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const inbox = await startInbox(t);
  const shop = await startCompleteStore(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  for (const [host, score, vertical] of [['northwind-outdoor.com', 93, 'sports_outdoors'], ['litware-books.com', 33, 'books_media']] as const) {
    await saveFakeScan(app.db, { host, score, vertical });
  }

  const context = await openChromium(t, 'srk-a11y-');
  const page = await context.newPage();
  const problems = pageProblems(page);

  // A real scan through the form, for the report.
  await page.goto(`${app.url}/`);
  await page.fill('#url', shop.url);
  // A scan on a loaded machine can outlast the click's own wait: wait for the report instead.
  await Promise.all([page.waitForURL(/\/r\/\d+$/, { timeout: 120_000 }), page.click('form.scan-form button[type=submit]', { noWaitAfter: true })]);
  const report = new URL(page.url()).pathname;

  // Signed in with a verified store, a monitor, a webhook endpoint and a key.
  await page.goto(`${app.url}/console`);
  await page.fill('#email', 'owner@shop.test');
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Check your mail');
  const signInSent = await seriousViolations(page);
  await page.goto(await inbox.nextLink('owner@shop.test'));
  await Promise.all([page.waitForURL(`${app.url}/console`), page.click('main button[type=submit]')]);
  // The scan above was made before signing in: the overview axe checks below offers it to the account.
  assert.equal(await page.locator('[data-testid="scans-before-sign-in"] tr[data-scan-id]').count(), 1);
  await page.goto(`${app.url}/console/stores`);
  await page.fill('#url', shop.url);
  await page.click('button:has-text("Get a verification token")');
  shop.setRoute('/', verifiedHome(((await page.textContent('[data-testid="verification-token"]')) ?? '').trim()));
  await page.click('button:has-text("Verify now")');
  await page.waitForSelector('text=is verified.');
  await page.goto(`${app.url}/console/monitors`);
  await Promise.all([page.waitForURL(`${app.url}/console/monitors`), page.click('button:has-text("Start monitoring")')]);
  await page.goto(`${app.url}/console/webhooks`);
  await page.fill('#url', 'http://127.0.0.1:9/hooks');
  await page.click('button:has-text("Add endpoint")');
  await page.waitForSelector('[data-testid="webhook-secret"]');
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  const [endpoint] = await app.db.monitoring.listEndpoints(account.id);
  await page.goto(`${app.url}/console/keys`);
  await page.fill('#name', 'CI pipeline');
  await page.click('form[action="/console/keys"] button[type=submit]');
  await page.waitForSelector('#new-key-value');

  const paths = [
    '/',
    report,
    '/index',
    '/api/v1',
    '/mcp',
    '/bot',
    '/checks',
    '/checks/access_live_agents_robots',
    `/console/brief/${report.split('/').pop()}`,
    '/console',
    '/console/scans',
    '/console/stores',
    '/console/monitors',
    '/console/webhooks',
    `/console/webhooks/${endpoint.id}`,
    '/console/keys',
    '/console/account',
  ];
  const found: string[] = signInSent.length ? [describe('/console/sign-in (sent)', signInSent)] : [];
  const keysAfterCreate = await seriousViolations(page);
  if (keysAfterCreate.length) found.push(describe('/console/keys (new key)', keysAfterCreate));
  for (const path of paths) {
    await page.goto(`${app.url}${path}`);
    const vs = await seriousViolations(page);
    if (vs.length) found.push(describe(path, vs));
  }
  // Signed out: the sign-in form and a page that does not exist.
  const guest = await context.browser()?.newContext() ?? (await openChromium(t, 'srk-a11y-guest-'));
  const visitor = await guest.newPage();
  for (const path of ['/console/sign-in', '/no-such-page']) {
    await visitor.goto(`${app.url}${path}`);
    const vs = await seriousViolations(visitor);
    if (vs.length) found.push(describe(path, vs));
  }
  assert.deepEqual(found, [], found.join('\n'));

  // The keyboard: the first Tab reaches a visible skip link to the main content.
  for (const path of ['/', report]) {
    await page.goto(`${app.url}${path}`);
    await page.keyboard.press('Tab');
    const skip = await focusColours(page);
    assert.equal(skip.text, 'Skip to content', `${path}: the first Tab lands on the skip link`);
    assert.ok(await page.locator('a.skip-link:focus').isVisible(), 'the skip link shows when focused');
    assert.equal(await page.getAttribute('a.skip-link', 'href'), '#main');
    assert.equal(await page.locator('main#main').count(), 1);
  }
  // The focus ring: on the dark header (the brand link) and on white (a link in a card).
  await page.goto(`${app.url}/`);
  await page.keyboard.press('Tab'); // a keyboard user: focus rings show from here on
  await page.focus('a.brand');
  const dark = await focusColours(page);
  await page.focus('main a[href="/index"]');
  const light = await focusColours(page);
  for (const [where, f] of [['header', dark], ['card', light]] as const) {
    assert.ok(f.width >= 2, `${where}: the ring is at least 2px (${f.width})`);
    const ratio = contrast(f.outline, f.background);
    assert.ok(ratio >= 3, `${where}: focus ring ${f.outline} on ${f.background} is ${ratio.toFixed(2)}:1, needs 3:1`);
  }
  assert.deepEqual(problems, []);
});
