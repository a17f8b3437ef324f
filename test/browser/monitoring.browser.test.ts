// The console's monitoring pages in Debian's Chromium: claim a store, read the token from
// data-testid="verification-token", publish it, verify; add a webhook endpoint and see its secret once; send a test
// event and find its delivery; the report page then names the verified owner. Without Chromium the test skips with
// a message, except under CI=true where it fails.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { startFixtureStore, verifiedHome } from '../helpers/fixture-store.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { createMonitoring } from '../../server/monitoring.js';
import { chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';


test('monitoring in the console in Chromium: verify a store by its token, add a webhook, send a test event', { timeout: 180_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const inbox = await startInbox(t);
  const shop = await startFixtureStore({});
  const receiver = await startReceiver();
  t.after(() => Promise.all([shop.close(), receiver.close()]));
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }) });

  const context = await openChromium(t, 'srk-monitoring-chromium-');
  const page = await context.newPage();
  const problems = pageProblems(page);

  await page.goto(`${app.url}/console`);
  await page.fill('#email', 'owner@shop.test');
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Check your mail');
  await page.goto(await inbox.nextLink('owner@shop.test'));
  await Promise.all([page.waitForURL(`${app.url}/console`), page.click('button[type=submit]')]);

  await page.goto(`${app.url}/console/stores`);
  await page.fill('#url', shop.url);
  await page.click('button:has-text("Get a verification token")');
  const token = ((await page.textContent('[data-testid="verification-token"]')) ?? '').trim();
  assert.match(token, /^srv-[0-9a-f]{32}$/);
  shop.setRoute('/', verifiedHome(token));
  await page.click('button:has-text("Verify now")');
  await page.waitForSelector('text=is verified.');
  assert.match((await page.textContent('[data-testid="verified-state"]')) ?? '', /Owner verified since/);

  await page.goto(`${app.url}/console/webhooks`);
  await page.fill('#url', receiver.url);
  await page.click('button:has-text("Add endpoint")');
  const secret = await page.inputValue('[data-testid="webhook-secret"]');
  assert.match(secret, /^whsec_/);
  receiver.secrets = [secret];
  await page.click('button:has-text("Send test event")');
  await page.waitForSelector('text=A webhook.test event is queued');
  await worker.tick();
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  const [endpoint] = await app.db.monitoring.listEndpoints(account.id);
  await page.goto(`${app.url}/console/webhooks/${endpoint.id}`); // a fresh GET: the deliveries table
  await page.waitForSelector('.console-deliveries code:text("webhook.test")');
  assert.equal(await page.isVisible('[data-testid="webhook-secret"]'), false, 'the secret is shown only once');
  assert.deepEqual(receiver.received.map((r) => r.verifiedBy), [[0]]);
  // The public report of a scan of the store names its verified owner.
  const scan = await (await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`)).json() as { scan_id: number };
  await page.goto(`${app.url}/r/${scan.scan_id}`);
  assert.match((await page.textContent('[data-testid="owner-verified"]')) ?? '', /Owner verified since \d{4}-\d{2}-\d{2}/);
  assert.deepEqual(problems, []);
});
