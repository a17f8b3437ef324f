// The console's monitoring pages over real HTTP (signed in through a real mailed link): claim and verify a store
// (the token in data-testid="verification-token"), monitors, webhook endpoints with their secret shown once,
// test events, deliveries and Resend. Every refusal is checked to change nothing stored.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { createMonitoring } from '../../server/monitoring.js';
import { deleteAccount } from '../../accounts/account.js';

async function setup(t: test.TestContext) {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, WEBHOOK_RETRY_SCHEDULE: '1s' }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.store.accounts.findAccountByEmail('owner@shop.test'))!;
  // The same composition main.ts starts; its secret key is the app's (DATA_DIR/secrets.key).
  const worker = createMonitoring({ config: app.config, store: app.store, log: pino({ level: 'silent' }) });
  return { app, client, account, worker };
}

const tokenOf = (html: string, host: string): string => {
  const card = html.split(`data-host="${host}"`)[1] ?? '';
  const token = /data-testid="verification-token">([^<]+)</.exec(card)?.[1];
  assert.ok(token, `a token for ${host}`);
  return token;
};

async function verifiedStore(t: test.TestContext, app: TestApp, client: ConsoleClient) {
  const shop = await startFixtureStore({});
  t.after(() => shop.close());
  const csrf = await client.csrf('/console/stores');
  const claimed = await client.post('/console/stores', { csrf, url: shop.url });
  assert.equal(claimed.status, 201, claimed.text.slice(0, 300));
  const host = `127.0.0.1:${shop.port}`;
  const token = tokenOf(claimed.text, host);
  assert.match(token, /^srv-[0-9a-f]{32}$/);
  shop.setRoute('/', { body: `<!doctype html><html><head><title>Shop</title><meta name="store-readiness-verification" content="${token}"></head><body>Shop</body></html>` });
  const verified = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(verified.status, 200, verified.text.slice(0, 300));
  assert.match(verified.text, /Owner verified since/);
  return { shop, host, token };
}

test('claim and verify a store in the console; a wrong token and a private address are refused; the report shows the owner', async (t) => {
  const { app, client, account } = await setup(t);
  const shop = await startFixtureStore({ '/': { body: '<!doctype html><title>Shop</title><meta name="store-readiness-verification" content="srv-wrong">' } });
  t.after(() => shop.close());
  const csrf = await client.csrf('/console/stores');
  const claimed = await client.post('/console/stores', { csrf, url: shop.url });
  const host = `127.0.0.1:${shop.port}`;
  tokenOf(claimed.text, host);
  const wrong = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(wrong.status, 422);
  assert.match(wrong.text, /verification token was not found/);
  assert.equal((await app.store.monitoring.getClaim(account.id, host))?.verifiedAt, null);

  const noCsrf = await client.post('/console/stores', { url: 'https://other.example' });
  assert.equal(noCsrf.status, 403);
  const otherSite = await client.post('/console/stores', { csrf, url: 'https://other.example' }, { origin: 'https://evil.example' });
  assert.equal(otherSite.status, 403);
  const bad = await client.post('/console/stores', { csrf, url: 'ftp://x' });
  assert.equal(bad.status, 400);
  assert.deepEqual((await app.store.monitoring.listClaims(account.id)).map((c) => c.host), [host], 'refusals stored nothing');

  const owned = await verifiedStore(t, app, client);
  const scan = await client.get(`/api/v1/scan?url=${encodeURIComponent(owned.shop.url)}`);
  const report = await client.get(`/r/${scan.body.scan_id}`, { accept: 'text/html' });
  assert.match(report.text, /data-testid="owner-verified">Owner verified since/);
});

test('monitors: add for a verified store, remove, and refusals', async (t) => {
  const { app, client, account } = await setup(t);
  const { host } = await verifiedStore(t, app, client);
  const csrf = await client.csrf('/console/monitors');
  const added = await client.post('/console/monitors', { csrf, host, cadence: 'daily' });
  assert.equal(added.status, 303);
  const page = await client.get('/console/monitors');
  assert.match(page.text, new RegExp(`data-monitor-id="mon_[0-9a-f]{32}">\\s*<td>${host.replace('.', '\\.')}</td>`));
  const again = await client.post('/console/monitors', { csrf, host, cadence: 'daily' });
  assert.equal(again.status, 400);
  assert.match(again.text, /monitored already/);
  const unverified = await client.post('/console/monitors', { csrf, host: 'not-mine.example', cadence: 'daily' });
  assert.equal(unverified.status, 400);
  assert.match(unverified.text, /Verify that you own not-mine\.example/);
  assert.equal((await app.store.monitoring.listMonitors(account.id)).length, 1);
  const [m] = await app.store.monitoring.listMonitors(account.id);
  assert.equal((await client.post('/console/monitors/remove', { csrf, id: m.id })).status, 303);
  assert.deepEqual(await app.store.monitoring.listMonitors(account.id), []);
});

test('webhooks: add an endpoint (secret shown once), send a test event, see the delivery, resend, rotate; refusals store nothing', async (t) => {
  const { app, client, account, worker } = await setup(t);
  await verifiedStore(t, app, client);
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const csrf = await client.csrf('/console/webhooks');

  const refused = await client.post('/console/webhooks', { csrf, url: 'ftp://hooks.example', events: 'scan.completed' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /must use https/);
  assert.deepEqual(await app.store.monitoring.listEndpoints(account.id), []);

  const created = await client.post('/console/webhooks', { csrf, url: receiver.url, events: 'scan.completed' });
  assert.equal(created.status, 201, created.text.slice(0, 300));
  const secret = /data-testid="webhook-secret" readonly value="(whsec_[^"]+)"/.exec(created.text)?.[1];
  assert.ok(secret);
  receiver.secrets = [secret];
  const [endpoint] = await app.store.monitoring.listEndpoints(account.id);
  const detail = await client.get(`/console/webhooks/${endpoint.id}`);
  assert.doesNotMatch(detail.text, new RegExp(secret.slice(6, 30).replace(/[+/]/g, '.')), 'shown once');

  assert.equal((await client.post(`/console/webhooks/${endpoint.id}/test`, { csrf })).status, 200);
  await worker.tick();
  assert.equal(receiver.received.length, 1);
  assert.deepEqual(receiver.received[0].verifiedBy, [0]);
  const deliveries = await client.get(`/console/webhooks/${endpoint.id}`);
  assert.match(deliveries.text, /<code>webhook\.test<\/code>[\s\S]*status-pass">204<\/span> delivered/);
  const deliveryId = /name="delivery" value="([^"]+)"/.exec(deliveries.text)?.[1];
  assert.ok(deliveryId);

  assert.equal((await client.post(`/console/webhooks/${endpoint.id}/resend`, { csrf, delivery: deliveryId })).status, 200);
  await worker.tick();
  assert.equal(receiver.received.length, 2);
  assert.equal(receiver.received[1].id, receiver.received[0].id, 'Resend keeps the webhook-id');

  const rotated = await client.post(`/console/webhooks/${endpoint.id}/rotate`, { csrf });
  const fresh = /data-testid="webhook-secret" readonly value="(whsec_[^"]+)"/.exec(rotated.text)?.[1];
  assert.ok(fresh && fresh !== secret);
  receiver.secrets = [secret, fresh];
  await client.post(`/console/webhooks/${endpoint.id}/test`, { csrf });
  await worker.tick();
  assert.deepEqual(receiver.received[2].verifiedBy, [0, 1]);

  const stranger = new ConsoleClient(app.url);
  assert.equal((await stranger.get(`/console/webhooks/${endpoint.id}`)).status, 303, 'signed out: sent to sign in');
  assert.equal((await client.get('/console/webhooks/ep_00000000000000000000000000000000')).status, 404);
  assert.equal((await client.post(`/console/webhooks/${endpoint.id}/delete`, { csrf: 'wrong' })).status, 403);
  assert.equal((await client.post(`/console/webhooks/${endpoint.id}/delete`, { csrf })).status, 303);
  assert.deepEqual(await app.store.monitoring.listEndpoints(account.id), []);
});

test('deleting the account removes its claims, monitors and endpoints', async (t) => {
  const { app, client, account } = await setup(t);
  const { host } = await verifiedStore(t, app, client);
  const csrf = await client.csrf('/console/monitors');
  await client.post('/console/monitors', { csrf, host, cadence: 'weekly' });
  await client.post('/console/webhooks', { csrf, url: 'https://hooks.example.com/x', events: 'scan.completed' });
  assert.equal((await app.store.monitoring.listEndpoints(account.id)).length, 1);
  await deleteAccount(app.store, account.id);
  assert.deepEqual(
    [await app.store.monitoring.listClaims(account.id), await app.store.monitoring.listMonitors(account.id), await app.store.monitoring.listEndpoints(account.id)],
    [[], [], []],
  );
  assert.deepEqual(await app.store.monitoring.verifiedClaims(host), []);
});
