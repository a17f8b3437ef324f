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
import { startFixtureStore, verifiedHome } from '../helpers/fixture-store.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { createMonitoring } from '../../server/monitoring.js';
import { deleteAccount } from '../../accounts/account.js';

async function setup(t: test.TestContext) {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, WEBHOOK_RETRY_SCHEDULE: '1s' }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  // The same composition main.ts starts; its secret key is the app's (DATA_DIR/secrets.key).
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }) });
  return { app, client, account, worker, inbox };
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
  shop.setRoute('/', verifiedHome(token));
  const posted = await client.post('/console/stores/verify', { csrf, host });
  // Post, then redirect: reloading the page that follows does not send the form again.
  assert.equal(posted.status, 303, posted.text.slice(0, 300));
  assert.equal(posted.headers.get('location'), `/console/stores?verified=${encodeURIComponent(host)}`);
  const verified = await client.get(posted.headers.get('location')!);
  assert.match(verified.text, /Owner verified since/);
  assert.match(verified.text, /is verified\./);
  // A link naming a store that is not this account's verified one shows no notice.
  assert.doesNotMatch((await client.get('/console/stores?verified=evil.example')).text, /is verified\./);
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
  assert.equal((await app.db.monitoring.getClaim(account.id, host))?.verifiedAt, null);

  const noCsrf = await client.post('/console/stores', { url: 'https://other.example' });
  assert.equal(noCsrf.status, 403);
  const otherSite = await client.post('/console/stores', { csrf, url: 'https://other.example' }, { origin: 'https://evil.example' });
  assert.equal(otherSite.status, 403);
  const bad = await client.post('/console/stores', { csrf, url: 'ftp://x' });
  assert.equal(bad.status, 400);
  assert.deepEqual((await app.db.monitoring.listClaims(account.id)).map((c) => c.host), [host], 'refusals stored nothing');

  const owned = await verifiedStore(t, app, client);
  const scan = await client.get(`/api/v1/scan?url=${encodeURIComponent(owned.shop.url)}`);
  const report = await client.get(`/r/${scan.body.scan_id}`, { accept: 'text/html' });
  assert.match(report.text, /data-testid="owner-verified">Owner verified since/);
});

test('a verified owner sets the vertical of a listed store; another account, an unverified claim, an unlisted host and an unknown vertical are refused and change nothing', async (t) => {
  const { app, client, inbox } = await setup(t);
  const { shop, host } = await verifiedStore(t, app, client);
  const csrf = await client.csrf('/console/stores');
  const unlisted = await client.post('/console/stores/vertical', { csrf, host, vertical: 'beauty' });
  assert.equal(unlisted.status, 409);
  assert.match(unlisted.text, /is not in the public index/);
  assert.match(unlisted.text, /Not in the public index yet/);

  const scan = await client.get(`/api/v1/scan?url=${encodeURIComponent(shop.url)}&vertical=apparel`);
  assert.equal(scan.status, 200, scan.text.slice(0, 300));
  const listedPage = await client.get('/console/stores');
  assert.match(listedPage.text, /<option value="apparel" selected>Apparel<\/option>/);

  const set = await client.post('/console/stores/vertical', { csrf, host, vertical: 'beauty' });
  assert.equal(set.status, 200, set.text.slice(0, 300));
  assert.match(set.text, /is now listed in Beauty/);
  assert.match(set.text, /<option value="beauty" selected>Beauty<\/option>/);
  assert.equal((await app.db.latestByHost(host))?.vertical, 'beauty');
  assert.equal(await app.db.countStores('beauty'), 1);
  assert.equal(await app.db.countStores('apparel'), 0);
  const index = await client.get('/index?vertical=beauty', { accept: 'text/html' });
  assert.ok(index.text.includes(host), 'the vertical\'s index page lists the store at once');

  const refusals: [Record<string, string>, number, RegExp][] = [
    [{ csrf, host, vertical: 'fashion' }, 400, /vertical must be one of/],
    [{ csrf, host: 'not-mine.example', vertical: 'pets' }, 404, /has not claimed that store/],
  ];
  const other = await startFixtureStore({});
  t.after(() => other.close());
  const claimedOnly = await client.post('/console/stores', { csrf, url: other.url });
  assert.equal(claimedOnly.status, 201);
  await client.get(`/api/v1/scan?url=${encodeURIComponent(other.url)}&vertical=apparel`);
  refusals.push([{ csrf, host: `127.0.0.1:${other.port}`, vertical: 'pets' }, 403, /Verify that you own/]);
  for (const [form, status, message] of refusals) {
    const answer = await client.post('/console/stores/vertical', form);
    assert.equal(answer.status, status, JSON.stringify(form));
    assert.match(answer.text, message);
  }
  assert.equal((await client.post('/console/stores/vertical', { host, vertical: 'pets' })).status, 403, 'no CSRF token');
  assert.equal((await client.post('/console/stores/vertical', { csrf, host, vertical: 'pets' }, { origin: 'https://evil.example' })).status, 403, 'another origin');

  // Another signed-in account that has not claimed the store.
  const stranger = new ConsoleClient(app.url);
  await stranger.signIn(inbox, 'stranger@elsewhere.test');
  const strangerCsrf = await stranger.csrf('/console/stores');
  const foreign = await stranger.post('/console/stores/vertical', { csrf: strangerCsrf, host, vertical: 'pets' });
  assert.equal(foreign.status, 404);
  assert.match(foreign.text, /has not claimed that store/);
  const signedOut = await new ConsoleClient(app.url).post('/console/stores/vertical', { host, vertical: 'pets' });
  assert.ok([302, 303, 401, 403].includes(signedOut.status), `signed out: ${signedOut.status}`);

  assert.equal((await app.db.latestByHost(host))?.vertical, 'beauty', 'every refusal left the vertical');
  assert.equal((await app.db.latestByHost(`127.0.0.1:${other.port}`))?.vertical, 'apparel');
  assert.equal(await app.db.countStores('pets'), 0);
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
  assert.equal((await app.db.monitoring.listMonitors(account.id)).length, 1);
  const [m] = await app.db.monitoring.listMonitors(account.id);
  assert.equal((await client.post('/console/monitors/remove', { csrf, id: m.id })).status, 303);
  assert.deepEqual(await app.db.monitoring.listMonitors(account.id), []);
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
  assert.deepEqual(await app.db.monitoring.listEndpoints(account.id), []);

  const created = await client.post('/console/webhooks', { csrf, url: receiver.url, events: 'scan.completed' });
  assert.equal(created.status, 201, created.text.slice(0, 300));
  const secret = /data-testid="webhook-secret" readonly value="(whsec_[^"]+)"/.exec(created.text)?.[1];
  assert.ok(secret);
  receiver.secrets = [secret];
  const [endpoint] = await app.db.monitoring.listEndpoints(account.id);
  const detail = await client.get(`/console/webhooks/${endpoint.id}`);
  assert.doesNotMatch(detail.text, new RegExp(secret.slice(6, 30).replace(/[+/]/g, '.')), 'shown once');

  assert.equal((await client.post(`/console/webhooks/${endpoint.id}/test`, { csrf })).status, 303);
  await worker.tick();
  assert.equal(receiver.received.length, 1);
  assert.deepEqual(receiver.received[0].verifiedBy, [0]);
  const deliveries = await client.get(`/console/webhooks/${endpoint.id}`);
  assert.match(deliveries.text, /<code>webhook\.test<\/code>[\s\S]*status-pass">204<\/span> delivered/);
  const deliveryId = /name="delivery" value="([^"]+)"/.exec(deliveries.text)?.[1];
  assert.ok(deliveryId);

  assert.equal((await client.post(`/console/webhooks/${endpoint.id}/resend`, { csrf, delivery: deliveryId })).status, 303);
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
  assert.deepEqual(await app.db.monitoring.listEndpoints(account.id), []);
});

test('deleting the account removes its claims, monitors and endpoints', async (t) => {
  const { app, client, account } = await setup(t);
  const { host } = await verifiedStore(t, app, client);
  const csrf = await client.csrf('/console/monitors');
  await client.post('/console/monitors', { csrf, host, cadence: 'weekly' });
  await client.post('/console/webhooks', { csrf, url: 'https://hooks.example.com/x', events: 'scan.completed' });
  assert.equal((await app.db.monitoring.listEndpoints(account.id)).length, 1);
  await deleteAccount(app.db, account.id);
  assert.deepEqual(
    [await app.db.monitoring.listClaims(account.id), await app.db.monitoring.listMonitors(account.id), await app.db.monitoring.listEndpoints(account.id)],
    [[], [], []],
  );
  assert.deepEqual(await app.db.monitoring.verifiedClaims(host), []);
});

test('30 "Send test event" presses in a row: 10 queued, then 429 pages with Retry-After; Resend shares the limit', async (t) => {
  const { app, client, account, worker } = await setup(t);
  await verifiedStore(t, app, client);
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const csrf = await client.csrf('/console/webhooks');
  assert.equal((await client.post('/console/webhooks', { csrf, url: receiver.url, events: 'scan.completed' })).status, 201);
  const [endpoint] = await app.db.monitoring.listEndpoints(account.id);
  const answers = [];
  for (let i = 0; i < 30; i++) answers.push(await client.post(`/console/webhooks/${endpoint.id}/test`, { csrf }));
  assert.deepEqual(answers.map((a) => a.status), [...Array(10).fill(303), ...Array(20).fill(429)]);
  const limited = answers[29];
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 600, `Retry-After ${retryAfter}`);
  assert.match(limited.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(limited.text, /at most 10 test events and resends per 10 minutes/);
  await worker.tick();
  assert.equal(receiver.received.length, 10, 'a refused press queued nothing');
  const deliveryId = /name="delivery" value="([^"]+)"/.exec((await client.get(`/console/webhooks/${endpoint.id}`)).text)?.[1];
  assert.ok(deliveryId);
  const resent = await client.post(`/console/webhooks/${endpoint.id}/resend`, { csrf, delivery: deliveryId });
  assert.equal(resent.status, 429);
  await worker.tick();
  assert.equal(receiver.received.length, 10);
});
