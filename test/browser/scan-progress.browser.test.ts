// The home form while a scan runs, in Chromium: a store that holds its home page until the test lets it answer,
// so the page is seen mid-scan with no timing guess. The button is disabled, a status line counts the seconds,
// and the report opens by itself; a scan that fails comes back with the button usable and a next step.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FixtureRoute } from '../helpers/fixture-store.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { startApp } from '../helpers/start-app.js';
import { completeStore } from '../fixtures/stores.js';
import { SHOTS, chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';

test('a slow scan: the button disables, progress counts the seconds, the report opens', { timeout: 120_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const store = await startFixtureStore({});
  t.after(() => store.close());
  const routes = completeStore(store.origin);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  t.after(() => release());
  const home = routes['/'] as FixtureRoute;
  for (const [path, route] of Object.entries(routes)) store.setRoute(path, route);
  // The home page answers only once the test has seen the page mid-scan.
  store.setRoute('/', (_req, res) => {
    void gate.then(() => {
      res.writeHead(home.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...home.headers });
      res.end(home.body);
    });
  });
  const app = await startApp(t);
  const context = await openChromium(t, 'srk-progress-');
  const page = await context.newPage();
  const problems = pageProblems(page);

  await page.goto(`${app.url}/`);
  assert.equal(await page.locator('#scan-progress').isVisible(), false, 'no progress before a scan');
  await page.fill('#url', store.url);
  // While a form's answer is pending, Playwright holds evaluate and screenshots until it arrives; an observer
  // installed beforehand reports every change of the status line and the button through the console instead.
  const seen: { text: string; disabled: boolean; label: string; hidden: boolean }[] = [];
  let sawCounting!: () => void;
  const counting = new Promise<void>((resolve) => (sawCounting = resolve));
  page.on('console', (m) => {
    if (!m.text().startsWith('progress ')) return;
    const state = JSON.parse(m.text().slice('progress '.length)) as (typeof seen)[number];
    seen.push(state);
    if (/\b[1-9]\d* s so far/.test(state.text)) sawCounting();
  });
  // A string, not a function: the test runner's compiler would add helpers the page does not have.
  await page.evaluate(`(() => {
    const status = document.getElementById('scan-progress');
    const button = document.querySelector('form.scan-form button[type=submit]');
    new MutationObserver(() => console.log('progress ' + JSON.stringify({ text: status.textContent, disabled: button.disabled, label: button.textContent, hidden: status.hidden })))
      .observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
  })()`);
  // Do not wait for the navigation the click starts: it ends only when the store answers.
  await page.click('button[type=submit]', { noWaitAfter: true });
  await counting;
  const last = seen.at(-1)!;
  assert.equal(last.disabled, true, 'the button is disabled while the scan runs');
  assert.equal(last.label, 'Scanning…');
  assert.equal(last.hidden, false, 'the status line shows');
  assert.match(last.text, /Scanning your store: [1-9]\d* s so far/);
  assert.ok(seen.some((s) => /: 0 s so far/.test(s.text)), 'the count starts at 0 s and goes up');

  release();
  await page.waitForURL(/\/r\/\d+$/, { timeout: 60_000 });
  assert.ok(Number(await page.textContent('[data-testid=score]')) >= 70);

  // A failed scan: the answer is a new page whose button works again and which says what to do next.
  await page.goto(`${app.url}/`);
  await page.fill('#url', 'https://no-such-store.invalid');
  await page.click('button[type=submit]');
  await page.waitForSelector('#scan-error');
  const button = page.locator('form.scan-form button[type=submit]');
  assert.equal(await button.isDisabled(), false);
  assert.equal(await page.locator('#scan-progress').isVisible(), false);
  assert.match((await page.textContent('#scan-error')) ?? '', /Check the address|scan again/);
  assert.equal(await page.getAttribute('#scan-progress', 'role'), 'status', 'screen readers hear the progress');
  await page.screenshot({ path: join(SHOTS, 'home-scan-failed.png') });
  assert.deepEqual(problems, [], 'no script error and no CSP refusal');
});
