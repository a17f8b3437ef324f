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
import { claimHost, verifyHost } from '../../monitoring/ownership.js';
import { OWNERSHIP_RECHECK_MS } from '../../monitoring/worker.js';

test('token removed, then "Check again": not verified, vertical refused, no webhook, no "Owner verified" on the report', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }) });
  const shop = await startFixtureStore({});
  const receiver = await startReceiver();
  t.after(() => Promise.all([shop.close(), receiver.close()]));
  const host = `127.0.0.1:${shop.port}`;

  const csrf = await client.csrf('/console/stores');
  const claimed = await client.post('/console/stores', { csrf, url: shop.url });
  const token = /data-testid="verification-token">([^<]+)</.exec(claimed.text)?.[1];
  assert.ok(token);
  shop.setRoute('/', verifiedHome(token));
  await verifyNow(client, csrf, host);
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
  assert.equal((await app.db.monitoring.getClaim(account.id, host))?.verifiedAt, null);
  assert.deepEqual(await app.db.monitoring.verifiedClaims(host), []);

  const vertical = await client.post('/console/stores/vertical', { csrf, host, vertical: 'beauty' });
  assert.equal(vertical.status, 403);
  assert.equal((await app.db.latestByHost(host))?.vertical, 'apparel', 'the refusal changed nothing');

  const second = await client.get(`/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(second.status, 200);
  await worker.tick();
  assert.equal(receiver.received.length, 1, 'no webhook goes to the former owner');
  const report = await client.get(`/r/${second.body.scan_id}`, { accept: 'text/html' });
  assert.equal(report.status, 200);
  assert.doesNotMatch(report.text, /Owner verified since/);
  assert.match(report.text, /data-testid="owner-verified">No:/);
});

test('"Check again" on a site that answers 503 or cannot be reached keeps the verification (an outage is not a withdrawal)', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  const shop = await startFixtureStore({});
  const host = `127.0.0.1:${shop.port}`;
  const csrf = await client.csrf('/console/stores');
  const claimed = await client.post('/console/stores', { csrf, url: shop.url });
  shop.setRoute('/', verifiedHome(/data-testid="verification-token">([^<]+)</.exec(claimed.text)![1]));
  await verifyNow(client, csrf, host);
  // An error page everywhere (a store down for maintenance) is an outage, not a withdrawal.
  shop.setRoute('*', { status: 503, body: '<!doctype html><title>Down for maintenance</title>' });
  shop.setRoute('/', { status: 503, body: '<!doctype html><title>Down for maintenance</title>' });
  const down = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(down.status, 422);
  assert.doesNotMatch(down.text, /no longer verified/);
  assert.ok((await app.db.monitoring.getClaim(account.id, host))?.verifiedAt, 'still verified after a 503');
  await shop.close(); // nothing answers on that port any more
  const again = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(again.status, 422);
  assert.doesNotMatch(again.text, /no longer verified/);
  assert.ok((await app.db.monitoring.getClaim(account.id, host))?.verifiedAt, 'still verified');
});

test('12 "Verify now" presses at once: the store sees at most SCAN_CONCURRENCY checks at a time, the rest wait or are refused, and the hourly checks run out', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, SCAN_CONCURRENCY: '2', SCAN_QUEUE: '3' }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  let inFlight = 0;
  let most = 0;
  // Every answer takes a while, so checks that ran at once would overlap at the store.
  const slow = (_req: unknown, res: import('node:http').ServerResponse) => {
    most = Math.max(most, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><head><title>Shop</title></head><body>Shop</body></html>');
    }, 300);
  };
  const shop = await startFixtureStore({ '*': slow });
  t.after(() => shop.close());
  const host = `127.0.0.1:${shop.port}`;
  const csrf = await client.csrf('/console/stores');
  assert.equal((await client.post('/console/stores', { csrf, url: shop.url })).status, 201);

  const presses = await Promise.all(Array.from({ length: 12 }, () => client.post('/console/stores/verify', { csrf, host })));
  const statuses = presses.map((p) => p.status).sort();
  t.diagnostic(`statuses ${statuses.join(',')}; at most ${most} requests at the store at once`);
  assert.ok(most <= 2, `at most SCAN_CONCURRENCY (2) checks fetched at once, saw ${most}`);
  const busy = presses.filter((p) => p.status === 503);
  assert.equal(busy.length, 12 - 5, 'past 2 running and 3 waiting, presses are refused');
  for (const b of busy) assert.match(b.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(presses.filter((p) => p.status === 422).length, 5, 'the others checked (and found no token)');

  // The account's checks of this hour: 5 spent above, 5 left, then 429 with Retry-After and no fetch.
  for (let i = 0; i < 5; i++) assert.equal((await client.post('/console/stores/verify', { csrf, host })).status, 422);
  const hits = shop.requests.length;
  const limited = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(limited.status, 429);
  assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
  assert.match(limited.text, /verification checks of this hour/);
  assert.equal(shop.requests.length, hits, 'a refused press fetches nothing');
});

test('an account claims at most 20 stores; the 21st is refused and nothing is stored', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const account = (await app.db.accounts.findAccountByEmail('owner@shop.test'))!;
  const csrf = await client.csrf('/console/stores');
  for (let i = 1; i <= 20; i++) assert.equal((await client.post('/console/stores', { csrf, url: `https://shop${i}.example` })).status, 201);
  const again = await client.post('/console/stores', { csrf, url: 'https://shop1.example' });
  assert.equal(again.status, 201, 'a store already claimed is not a new claim');
  const over = await client.post('/console/stores', { csrf, url: 'https://shop21.example' });
  assert.equal(over.status, 400);
  assert.match(over.text, /can claim at most 20 stores/);
  assert.equal((await app.db.monitoring.listClaims(account.id)).length, 20);
  const together = await Promise.all(['a', 'b', 'c'].map((x) => client.post('/console/stores', { csrf, url: `https://more-${x}.example` })));
  assert.ok(together.every((r) => r.status === 400), 'presses sent together cannot pass the cap');
  assert.equal((await app.db.monitoring.listClaims(account.id)).length, 20);
});

test('a verified claim without a monitor is re-checked by the worker a day after its last check; the token gone, it is no longer verified', async (t) => {
  const app = await startApp(t);
  const shop = await startFixtureStore({});
  t.after(() => shop.close());
  const deps = { db: app.db, config: app.config };
  const claim = await claimHost(deps, 'acct_1', shop.url);
  shop.setRoute('/', verifiedHome(claim.token));
  const verifiedAt = new Date();
  assert.equal((await verifyHost({ ...deps, now: () => verifiedAt }, 'acct_1', claim.host)).verified, true);
  assert.deepEqual(await app.db.monitoring.listMonitors('acct_1'), [], 'no monitor');
  shop.setRoute('/', { body: '<!doctype html><html><head><title>Shop</title></head><body>Shop</body></html>' });

  let clock = new Date(verifiedAt.getTime() + OWNERSHIP_RECHECK_MS / 2);
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }), now: () => clock });
  const homeHits = shop.hits('/');
  await worker.tick();
  assert.equal(shop.hits('/'), homeHits, 'not due before a day has passed');
  assert.ok((await app.db.monitoring.getClaim('acct_1', claim.host))?.verifiedAt);

  clock = new Date(verifiedAt.getTime() + OWNERSHIP_RECHECK_MS + 60_000);
  await worker.tick();
  assert.ok(shop.hits('/') > homeHits, 'the worker fetched the site');
  assert.equal((await app.db.monitoring.getClaim('acct_1', claim.host))?.verifiedAt, null, 'verification ended');
  assert.deepEqual(await app.db.monitoring.verifiedClaims(claim.host), []);
});

/** "Verify now" on a site that shows the token: the console redirects to the stores page, which says since when. */
async function verifyNow(client: ConsoleClient, csrf: string, host: string): Promise<void> {
  const posted = await client.post('/console/stores/verify', { csrf, host });
  assert.equal(posted.status, 303, posted.text.slice(0, 300));
  assert.match((await client.get(posted.headers.get('location')!)).text, /Owner verified since/);
}
