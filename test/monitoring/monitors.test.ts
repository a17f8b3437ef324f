// Monitors: a verified owner's host re-scanned when due (an ordinary scan, in the history), at most 10 an account,
// skipped and recorded when the account's quota is used up.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { AppError } from '../../lib/errors.js';
import { addMonitor, MAX_MONITORS_PER_ACCOUNT } from '../../monitoring/monitors.js';
import { claimHost, verifyHost } from '../../monitoring/ownership.js';
import { secretBox } from '../../monitoring/secrets.js';
import { createMonitoring } from '../../server/monitoring.js';
import { startFixtureStore, verifiedHome } from '../helpers/fixture-store.js';
import { startApp } from '../helpers/start-app.js';

test('a due monitor scans the host once, records the outcome and schedules the next run; the quota skips and records', async (t) => {
  const app = await startApp(t, { PRO_SCANS_PER_30_DAYS: '1' });
  const deps = { db: app.db, config: app.config };
  const shop = await startFixtureStore({});
  t.after(() => shop.close());
  const claim = await claimHost(deps, 'acct_1', shop.url);
  shop.setRoute('/', verifiedHome(claim.token));
  await verifyHost(deps, 'acct_1', claim.host);
  const homeHitsBefore = shop.hits('/');
  const monitor = await addMonitor(deps, 'acct_1', { host: claim.host, cadence: 'daily', firstRunAt: new Date(Date.now() - 1000) });
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }), box: secretBox(randomBytes(32)) });

  const counts = await worker.tick();
  assert.equal(counts.monitors, 1);
  const [ran] = await app.db.monitoring.listMonitors('acct_1');
  assert.equal(ran.lastOutcome, 'scanned');
  assert.ok(ran.lastScanId);
  const history = await app.db.monitoring.scanHistory(claim.host, 10);
  assert.deepEqual(history.map((h) => h.id), [ran.lastScanId], 'the scheduled scan is an ordinary stored scan');
  assert.ok(shop.hits('/') > homeHitsBefore);
  const day = 86_400_000;
  const next = ran.nextRunAt.getTime() - (ran.lastRunAt?.getTime() ?? 0);
  assert.ok(next >= day && next <= day * 1.01, 'next run a day later, give or take 1%');
  assert.deepEqual(await worker.tick(), { monitors: 0, events: 0, attempts: 0 }, 'not due again');

  // Due again with the 30-day quota used up: skipped, recorded, nothing scanned.
  await app.db.monitoring.removeMonitor('acct_1', monitor.id);
  await addMonitor(deps, 'acct_1', { host: claim.host, cadence: 'weekly', firstRunAt: new Date(Date.now() - 1000) });
  const hits = shop.hits('/robots.txt'); // a scan reads it; the ownership re-check does not
  await worker.tick();
  const [skipped] = await app.db.monitoring.listMonitors('acct_1');
  assert.match(skipped.lastOutcome ?? '', /^skipped: the account's 1 scans per 30 days are used up/);
  assert.equal(shop.hits('/robots.txt'), hits);
  assert.equal((await app.db.monitoring.scanHistory(claim.host, 10)).length, 1);
});

test('before a scheduled scan the token is checked again: gone from the site, the verification is withdrawn and nothing is scanned', async (t) => {
  const app = await startApp(t);
  const deps = { db: app.db, config: app.config };
  const shop = await startFixtureStore({});
  t.after(() => shop.close());
  const claim = await claimHost(deps, 'acct_1', shop.url);
  shop.setRoute('/', verifiedHome(claim.token));
  await verifyHost(deps, 'acct_1', claim.host);
  await addMonitor(deps, 'acct_1', { host: claim.host, cadence: 'daily', firstRunAt: new Date(Date.now() - 1000) });
  shop.setRoute('/', { body: '<!doctype html><html><head><title>Shop</title></head><body>New theme, tag lost</body></html>' });
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }), box: secretBox(randomBytes(32)) });
  await worker.tick();
  const [m] = await app.db.monitoring.listMonitors('acct_1');
  assert.match(m.lastOutcome ?? '', /^skipped: the verification token is no longer on the site/);
  assert.equal((await app.db.monitoring.getClaim('acct_1', claim.host))?.verifiedAt, null);
  assert.deepEqual(await app.db.monitoring.scanHistory(claim.host, 10), []);
});

test('refused with a clear message and nothing stored: an unverified host, an 11th monitor, a bad cadence', async (t) => {
  const app = await startApp(t);
  const deps = { db: app.db, config: app.config };
  await app.db.monitoring.putClaim({ accountId: 'acct_1', host: 'unverified.test', origin: 'https://unverified.test', token: 't', createdAt: new Date(), verifiedAt: null, method: null });
  await assert.rejects(addMonitor(deps, 'acct_1', { host: 'unverified.test', cadence: 'daily' }), (err: unknown) => err instanceof AppError && /Verify that you own unverified\.test/.test(err.message));
  for (let i = 0; i <= MAX_MONITORS_PER_ACCOUNT; i++) {
    const host = `shop${i}.test`;
    await app.db.monitoring.putClaim({ accountId: 'acct_1', host, origin: `https://${host}`, token: 't', createdAt: new Date(), verifiedAt: null, method: null });
    await app.db.monitoring.markVerified('acct_1', host, new Date(), 'file');
  }
  for (let i = 0; i < MAX_MONITORS_PER_ACCOUNT; i++) await addMonitor(deps, 'acct_1', { host: `shop${i}.test`, cadence: 'weekly' });
  await assert.rejects(
    addMonitor(deps, 'acct_1', { host: `shop${MAX_MONITORS_PER_ACCOUNT}.test`, cadence: 'weekly' }),
    (err: unknown) => err instanceof AppError && err.code === 'INVALID_PARAMS' && /at most 10 hosts/.test(err.message),
  );
  await assert.rejects(addMonitor(deps, 'acct_1', { host: 'shop0.test', cadence: 'daily' }), /monitored already/);
  await assert.rejects(addMonitor(deps, 'acct_1', { host: 'shop0.test', cadence: 'hourly' }), /daily or weekly/);
  assert.equal((await app.db.monitoring.listMonitors('acct_1')).length, MAX_MONITORS_PER_ACCOUNT);
});
