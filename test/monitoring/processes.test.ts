// Monitoring across real service processes (test/support/child-server.ts) on one SQLite file:
//   - a delivery that failed once survives a SIGKILL and is retried, with the same webhook-id, by the next process;
//   - two processes polling together run every due monitor scan once and send every event once per attempt.
// The test process writes claims, endpoints and monitors into the same file, as the console will.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '../../lib/config.js';
import { addEndpoint } from '../../monitoring/endpoints.js';
import { addMonitor } from '../../monitoring/monitors.js';
import { claimHost, verifyHost } from '../../monitoring/ownership.js';
import { parseSecretsKey, secretBox } from '../../monitoring/secrets.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { startFixtureStore, type FixtureStore, verifiedHome } from '../helpers/fixture-store.js';
import { call } from '../helpers/start-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

type T = { after(fn: () => unknown): void };

const SECRETS_KEY = randomBytes(32).toString('base64');
const ENV = {
  SCAN_ALLOW_PRIVATE: '1', // loopback fixtures and receiver; a child process has no injected allow-list
  ANON_SCANS_PER_HOUR: '1000000',
  ANON_READS_PER_MINUTE: '1000000',
  SCAN_TIMEOUT_MS: '10000',
  SECRETS_KEY,
  MONITOR_POLL_MS: '150',
  WEBHOOK_RETRY_SCHEDULE: '2s',
};

async function until(what: string, pred: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function shared(t: T) {
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-monitoring-'));
  const repo = new SqliteRepo(join(dataDir, 'store.db'));
  await repo.init();
  const deps = { db: repo, config: testConfig(), box: secretBox(parseSecretsKey(SECRETS_KEY)) };
  const children: ChildServer[] = [];
  const receiver = await startReceiver();
  const fixtures: FixtureStore[] = [];
  t.after(async () => {
    for (const child of children) await child.stop(5_000);
    await repo.close();
    await receiver.close();
    for (const f of fixtures) await f.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async () => {
    const child = await startChildServer({ env: ENV, dataDir });
    children.push(child);
    return child;
  };
  /** A loopback store verified by acct_1 (meta tag). */
  const ownedStore = async () => {
    const shop = await startFixtureStore({ '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' } });
    fixtures.push(shop);
    const claim = await claimHost(deps, 'acct_1', shop.url);
    shop.setRoute('/', verifiedHome(claim.token));
    assert.equal((await verifyHost(deps, 'acct_1', claim.host)).verified, true);
    return { shop, host: claim.host };
  };
  const endpointOn = async (r: Receiver) => {
    const { endpoint, secret } = await addEndpoint(deps, 'acct_1', { url: r.url, events: ['scan.completed'] });
    r.secrets = [secret];
    return endpoint;
  };
  return { repo, deps, receiver, start, ownedStore, endpointOn };
}

test('a delivery that failed once is retried after the service is killed (SIGKILL) and restarted, with the same webhook-id', async (t) => {
  const s = await shared(t);
  const first = await s.start();
  const { shop } = await s.ownedStore();
  const endpoint = await s.endpointOn(s.receiver);
  s.receiver.answer = (r) => (r.n === 1 ? { status: 500 } : { status: 204 });

  const res = await call(`${first.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(res.status, 200, res.text.slice(0, 200));
  await until('the first attempt recorded', async () => (await s.repo.monitoring.listAttempts(endpoint.id, 10)).length === 1);
  first.kill('SIGKILL'); // between attempts: the retry is due in 2 s
  assert.equal((await first.exited).signal, 'SIGKILL');
  assert.equal(s.receiver.received.length, 1);

  await s.start();
  await until('the retry delivered', () => s.receiver.received.length >= 2);
  await until('the retry recorded', async () => (await s.repo.monitoring.listAttempts(endpoint.id, 10)).length === 2);
  const [a, b] = s.receiver.received;
  assert.equal(a.id, b.id, 'the same webhook-id on every attempt');
  assert.equal(a.body, b.body);
  assert.deepEqual([a.verifiedBy, b.verifiedBy], [[0], [0]]);
  assert.equal(b.json?.type, 'scan.completed');
  const attempts = await s.repo.monitoring.listAttempts(endpoint.id, 10);
  assert.deepEqual(attempts.map((x) => [x.attempt, x.status]), [[2, 204], [1, 500]]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(s.receiver.received.length, 2, 'nothing sent after the success');
});

test('two processes on one store file: every due monitor scan runs once and every event is delivered once', async (t) => {
  const s = await shared(t);
  const [a, b] = await Promise.all([s.start(), s.start()]);
  const stores = await Promise.all([s.ownedStore(), s.ownedStore(), s.ownedStore(), s.ownedStore()]);
  await s.endpointOn(s.receiver);
  const robotsBefore = stores.map(({ shop }) => shop.hits('/robots.txt'));
  const due = new Date(Date.now() - 1000);
  for (const { host } of stores) await addMonitor(s.deps, 'acct_1', { host, cadence: 'daily', firstRunAt: due });

  await until('every monitor ran', async () => (await s.repo.monitoring.listMonitors('acct_1')).every((m) => m.lastOutcome !== null));
  await until('every event delivered', () => s.receiver.received.length >= stores.length);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // ten more polls of each process: nothing more may come

  for (const [i, { shop, host }] of stores.entries()) {
    assert.equal((await s.repo.monitoring.scanHistory(host, 10)).length, 1, `${host}: scanned once`);
    assert.equal(shop.hits('/robots.txt') - robotsBefore[i], 1, `${host}: one scan's robots.txt request`);
  }
  const monitors = await s.repo.monitoring.listMonitors('acct_1');
  assert.ok(monitors.every((m) => m.lastOutcome === 'scanned' && m.nextRunAt.getTime() > Date.now() + 86_000_000));
  assert.equal(s.receiver.received.length, stores.length, 'one delivery per event');
  assert.equal(new Set(s.receiver.received.map((r) => r.id)).size, stores.length);
  assert.ok(s.receiver.received.every((r) => r.verifiedBy.length === 1));
  const runs = [a, b].map((c) => (c.output().stdout.match(/"msg":"monitor run"/g) ?? []).length);
  assert.equal(runs[0] + runs[1], stores.length, `monitor runs per process: ${runs.join(' + ')}`);
});

test('MONITOR=off: the process serves but runs no scheduled work', async (t) => {
  const child = await startChildServer({ env: { ...ENV, MONITOR: 'off' } });
  t.after(() => child.stop(5_000).then(() => rmSync(child.dataDir, { recursive: true, force: true })));
  const repo = new SqliteRepo(join(child.dataDir, 'store.db'));
  await repo.init();
  t.after(() => repo.close());
  const deps = { db: repo, config: testConfig() };
  await repo.monitoring.putClaim({ accountId: 'acct_1', host: 'off.test', origin: 'https://off.test', token: 't', createdAt: new Date(), verifiedAt: null, method: null });
  await repo.monitoring.markVerified('acct_1', 'off.test', new Date(), 'meta');
  await addMonitor(deps, 'acct_1', { host: 'off.test', cadence: 'daily', firstRunAt: new Date(Date.now() - 1000) });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal((await repo.monitoring.listMonitors('acct_1'))[0].lastOutcome, null);
  assert.equal((await call(`${child.url}/healthz`)).status, 200);
});
