// Verification lasts only while the token stays on the site: after the owner removes it, "Check again" ends the
// verification, and with it the vertical rights, the webhooks and "Owner verified" on the public report. Real HTTP
// throughout: the console signed in through a mailed link, a loopback store, a loopback webhook receiver.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { startFixtureStore, verifiedHome } from '../helpers/fixture-store.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { createMonitoring } from '../../server/monitoring.js';

test('token removed, then "Check again": not verified, vertical refused, no webhook, no "Owner verified" on the report', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.store.accounts.findAccountByEmail('owner@shop.test'))!;
  const worker = createMonitoring({ config: app.config, store: app.store, log: pino({ level: 'silent' }) });
  const shop = await startFixtureStore({});
  const receiver = await startReceiver();
  t.after(() => Promise.all([shop.close(), receiver.close()]));
  const host = `127.0.0.1:${shop.port}`;

  const csrf = await client.csrf('/console/stores');
  const claimed = await client.post('/console/stores', { csrf, url: shop.url });
  const token = /data-testid="verification-token">([^<]+)</.exec(claimed.text)?.[1];
  assert.ok(token);
  shop.setRoute('/', verifiedHome(token));
  assert.match((await client.post('/console/stores/verify', { csrf, host })).text, /Owner verified since/);
  const created = await client.post('/console/webhooks', { csrf: await client.csrf('/console/webhooks'), url: receiver.url, events: 'scan.completed' });
  assert.equal(created.status, 201, created.text.slice(0, 300));

  // While verified: a scan of the root reaches the owner's endpoint and the report names the owner.
  const first = await client.get(`/api/v1/scan?url=${encodeURIComponent(shop.url)}&vertical=apparel`);
  assert.equal(first.status, 200, first.text.slice(0, 300));
  await worker.tick();
  assert.equal(receiver.received.length, 1, 'the verified owner gets the scan event');
  assert.match((await client.get(`/r/${first.body.scan_id}`, { accept: 'text/html' })).text, /Owner verified since/);

  // The owner (or whoever now runs the site) takes the token down; "Check again" finds the site without it.
  shop.setRoute('/', { body: '<!doctype html><html><head><title>Shop</title></head><body>Shop</body></html>' });
  const again = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(again.status, 422);
  assert.match(again.text, /is no longer verified/);
  assert.match(again.text, /data-testid="verified-state">Not verified yet/);
  assert.equal((await app.store.monitoring.getClaim(account.id, host))?.verifiedAt, null);
  assert.deepEqual(await app.store.monitoring.verifiedClaims(host), []);

  const vertical = await client.post('/console/stores/vertical', { csrf, host, vertical: 'beauty' });
  assert.equal(vertical.status, 403);
  assert.equal((await app.store.latestByHost(host))?.vertical, 'apparel', 'the refusal changed nothing');

  const second = await client.get(`/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(second.status, 200);
  await worker.tick();
  assert.equal(receiver.received.length, 1, 'no webhook goes to the former owner');
  const report = await client.get(`/r/${second.body.scan_id}`, { accept: 'text/html' });
  assert.equal(report.status, 200);
  assert.doesNotMatch(report.text, /Owner verified/);
});

test('"Check again" on a site that cannot be read keeps the verification (an outage is not a withdrawal)', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.store.accounts.findAccountByEmail('owner@shop.test'))!;
  const shop = await startFixtureStore({});
  const host = `127.0.0.1:${shop.port}`;
  const csrf = await client.csrf('/console/stores');
  const claimed = await client.post('/console/stores', { csrf, url: shop.url });
  shop.setRoute('/', verifiedHome(/data-testid="verification-token">([^<]+)</.exec(claimed.text)![1]));
  assert.match((await client.post('/console/stores/verify', { csrf, host })).text, /Owner verified since/);
  await shop.close(); // nothing answers on that port any more
  const again = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(again.status, 422);
  assert.doesNotMatch(again.text, /no longer verified/);
  assert.ok((await app.store.monitoring.getClaim(account.id, host))?.verifiedAt, 'still verified');
});
