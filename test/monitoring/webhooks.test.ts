// Webhooks end to end, in one process: the real app scans loopback stores through GET /api/v1/scan, the
// monitoring worker (the same composition main.ts starts) fans the events out and delivers them to a loopback
// receiver that checks every signature with the `standardwebhooks` package.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { AppError } from '../../lib/errors.js';
import { addEndpoint, resend, rotateSecret, sendTestEvent } from '../../monitoring/endpoints.js';
import { claimHost, verifyHost } from '../../monitoring/ownership.js';
import { secretBox } from '../../monitoring/secrets.js';
import type { SendMail } from '../../monitoring/worker.js';
import { createMonitoring } from '../../server/monitoring.js';
import { ScanEventData, WebhookBody } from '../../schemas/webhook-event.js';
import { startFixtureStore, type FixtureStore, verifiedHome } from '../helpers/fixture-store.js';
import { call, startApp } from '../helpers/start-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { assertWithin } from '../helpers/timing.js';
import { BREAKER_PAUSE_MS } from '../../monitoring/circuit-breaker.js';

type T = { after(fn: () => unknown): void };

const LLMS_TXT = '# Shop\n\n> A test shop selling mugs, shipping worldwide in EUR.\n\n## Products\n\n- [Mugs](/mugs): all mugs\n';

async function setup(t: T, env: Record<string, string> = {}, opts: { now?: () => Date } = {}) {
  const app = await startApp(t, { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', WEBHOOK_TIMEOUT_MS: '600', ...env });
  const box = secretBox(randomBytes(32));
  const mails: Parameters<SendMail>[0][] = [];
  const worker = createMonitoring({
    config: app.config,
    db: app.db,
    state: app.state,
    log: pino({ level: 'silent' }),
    box,
    now: opts.now,
    sendMail: async (m) => void mails.push(m),
  });
  const deps = { db: app.db, config: app.config, box, now: opts.now };
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  return { app, worker, deps, mails, receiver };
}

/** A verified store of acct_1 with an endpoint on the receiver; the receiver knows its secret. */
async function ownedStoreWithEndpoint(t: T, s: Awaited<ReturnType<typeof setup>>, events: string[] = ['scan.completed', 'score.changed', 'grade.changed', 'check.regressed', 'agent_ready.changed']) {
  const shop = await startFixtureStore({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: LLMS_TXT },
  });
  t.after(() => shop.close());
  const claim = await claimHost(s.deps, 'acct_1', shop.url);
  shop.setRoute('/', verifiedHome(claim.token, '<h1>Shop</h1>'));
  assert.equal((await verifyHost(s.deps, 'acct_1', claim.host)).verified, true);
  const { endpoint, secret } = await addEndpoint(s.deps, 'acct_1', { url: s.receiver.url, events });
  s.receiver.secrets = [secret];
  return { shop, claim, endpoint, secret };
}

async function scan(appUrl: string, shop: FixtureStore): Promise<{ scan_id: number; score: number; grade: string }> {
  const res = await call(`${appUrl}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return res.body;
}

/** Ticks the worker until the condition holds (retries come due in real time). */
async function tickUntil(worker: { tick(): Promise<unknown> }, receiver: Receiver, pred: (r: Receiver['received']) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!pred(receiver.received)) {
    if (Date.now() > deadline) throw new Error(`not delivered in time: ${receiver.received.map((r) => `${r.n}:${r.json?.type}`).join(', ')}`);
    await worker.tick();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a changed store rescanned gives scan.completed, score.changed and check.regressed with the right checks, all signed', async (t) => {
  const s = await setup(t);
  const { shop, claim } = await ownedStoreWithEndpoint(t, s);
  const first = await scan(s.app.url, shop);
  await s.worker.tick();
  assert.deepEqual(s.receiver.received.map((r) => r.json?.type), ['scan.completed'], 'a first scan has nothing to compare with');

  shop.setRoute('/llms.txt', { status: 404, body: 'Not found' }); // the store breaks its llms.txt
  const second = await scan(s.app.url, shop);
  assert.ok(second.score < first.score);
  await s.worker.tick();
  const events = s.receiver.received.slice(1);
  const types = events.map((r) => r.json?.type).sort();
  const expected = ['check.regressed', 'scan.completed', 'score.changed', ...(first.grade !== second.grade ? ['grade.changed'] : [])].sort();
  assert.deepEqual(types, expected);
  for (const r of s.receiver.received) {
    assert.deepEqual(r.verifiedBy, [0], `${r.json?.type}: the standardwebhooks package verifies the signature`);
    assert.equal(r.signature.split(' ').length, 1);
    assert.ok(Buffer.byteLength(r.body) < 20_000);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(WebhookBody.safeParse(r.json).success, true, 'the documented body shape');
    assert.equal(ScanEventData.safeParse(r.json?.data).success, true, 'the documented data shape');
  }
  assert.equal(new Set(s.receiver.received.map((r) => r.id)).size, s.receiver.received.length, 'one webhook-id per message');
  const regressed = events.find((r) => r.json?.type === 'check.regressed')!.json!;
  const data = regressed.data as { host: string; scan_id: number; report_url: string; score: number; grade: string; previous_score: number; previous_grade: string; previous_scan_id: number; changed_checks: { id: string; from: string; to: string; regressed: boolean; points_from: number; points_to: number }[] };
  assert.deepEqual(
    [data.host, data.scan_id, data.report_url, data.score, data.grade, data.previous_score, data.previous_grade, data.previous_scan_id],
    [claim.host, second.scan_id, `http://localhost:3000/r/${second.scan_id}`, second.score, second.grade, first.score, first.grade, first.scan_id],
  );
  const llms = data.changed_checks.find((c) => c.id === 'discovery_llms_txt');
  assert.deepEqual(llms && [llms.from, llms.to, llms.regressed, llms.points_from, llms.points_to], ['pass', 'fail', true, 3, 0]);
  assert.ok(data.changed_checks.every((c) => c.from !== c.to));

  // Nothing is sent twice: another pass finds no work.
  assert.deepEqual(await s.worker.tick(), { monitors: 0, events: 0, attempts: 0 });
  // The receiver only gets the events it picked.
  await s.app.db.monitoring.updateEndpoint({ ...(await s.app.db.monitoring.listEndpoints('acct_1'))[0], events: ['grade.changed'] });
  await scan(s.app.url, shop);
  await s.worker.tick();
  assert.equal(s.receiver.received.length, events.length + 1, 'no grade change, no event');
});

test('a receiver that fails twice gets the event on the third attempt with the same webhook-id; deliveries are recorded', async (t) => {
  const s = await setup(t);
  const { endpoint } = await ownedStoreWithEndpoint(t, s);
  s.receiver.answer = (r) => (r.n <= 2 ? { status: 500 } : { status: 204 });
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await tickUntil(s.worker, s.receiver, (r) => r.length >= 3);
  const [a, b, c] = s.receiver.received;
  assert.equal(a.id, b.id);
  assert.equal(b.id, c.id);
  assert.equal(a.json?.type, 'webhook.test');
  assert.ok(s.receiver.received.every((r) => r.verifiedBy.length === 1));
  assert.equal(a.body, c.body, 'the same body on every attempt');
  const attempts = await s.app.db.monitoring.listAttempts(endpoint.id, 100);
  assert.deepEqual(attempts.map((x) => [x.attempt, x.status, x.outcome]), [[3, 204, 'delivered'], [2, 500, 'HTTP 500'], [1, 500, 'HTTP 500']]);
  assert.ok(attempts.every((x) => x.messageId === a.id && x.eventType === 'webhook.test' && x.durationMs >= 0));
  await s.worker.tick();
  assert.equal(s.receiver.received.length, 3, 'a delivered message is not sent again');

  // Resend: the same message (same webhook-id and body) once more, on request.
  await resend(s.deps, 'acct_1', attempts[0].deliveryId);
  await tickUntil(s.worker, s.receiver, (r) => r.length >= 4);
  assert.equal(s.receiver.received[3].id, a.id);
  assert.equal(s.receiver.received[3].body, a.body);
  await assert.rejects(resend(s.deps, 'acct_other', attempts[0].deliveryId), (err: unknown) => err instanceof AppError && err.code === 'NOT_FOUND');
});

test('a receiver that hangs is cut at the timeout and retried', async (t) => {
  const timeoutMs = 600;
  const s = await setup(t, { WEBHOOK_TIMEOUT_MS: String(timeoutMs) });
  const { endpoint } = await ownedStoreWithEndpoint(t, s);
  s.receiver.answer = (r) => (r.n === 1 ? 'hang' : { status: 200 });
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  const started = performance.now();
  await s.worker.tick();
  const took = performance.now() - started;
  assert.ok(took >= timeoutMs * 0.9, `waited for the timeout (${took.toFixed(0)} ms)`);
  assert.ok(took < timeoutMs * 10, `cut at the timeout, not left hanging (${took.toFixed(0)} ms for a ${timeoutMs} ms timeout)`);
  const [first] = await s.app.db.monitoring.listAttempts(endpoint.id, 1);
  assert.deepEqual([first.status, first.outcome], [null, `timeout after ${timeoutMs} ms`]);
  await tickUntil(s.worker, s.receiver, (r) => r.length >= 2);
  await s.worker.tick();
  const attempts = await s.app.db.monitoring.listAttempts(endpoint.id, 100);
  assert.deepEqual(attempts.map((x) => x.outcome)[0], 'delivered');
  assert.equal(s.receiver.received[0].id, s.receiver.received[1].id);
});

test('a redirecting receiver counts as a failure and the redirect is not followed; a 410 disables the endpoint and mails the owner', async (t) => {
  const s = await setup(t);
  const { endpoint } = await ownedStoreWithEndpoint(t, s);
  const elsewhere = await startReceiver();
  t.after(() => elsewhere.close());
  s.receiver.answer = () => ({ status: 307, location: elsewhere.url });
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  const [redirected] = await s.app.db.monitoring.listAttempts(endpoint.id, 1);
  assert.equal(redirected.attempt, 1);
  assert.match(redirected.outcome, /redirect not followed/);
  assert.equal(elsewhere.received.length, 0, 'the redirect target is never contacted');
  assert.equal((await s.app.db.monitoring.getDelivery(redirected.deliveryId))?.state, 'pending', 'retried later');

  s.receiver.answer = () => ({ status: 410 });
  await tickUntil(s.worker, s.receiver, (r) => r.length >= 2);
  const ep = (await s.app.db.monitoring.getEndpoint(endpoint.id))!;
  assert.ok(ep.disabledAt);
  assert.match(ep.disabledReason ?? '', /410/);
  assert.equal((await s.app.db.monitoring.getDelivery(redirected.deliveryId))?.state, 'failed');
  assert.equal(s.mails.length, 1);
  assert.equal(s.mails[0].accountId, 'acct_1');
  assert.match(s.mails[0].text, /410 Gone/);
  // A disabled endpoint gets nothing more.
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  assert.equal(s.receiver.received.length, 2);
  assert.equal((await s.app.db.monitoring.listAttempts(endpoint.id, 1))[0].outcome, 'not sent: endpoint disabled or removed');
});

test('five days of failures disable the endpoint and mail the owner once', async (t) => {
  let clock = Date.now();
  const s = await setup(t, { WEBHOOK_RETRY_SCHEDULE: '1h' }, { now: () => new Date(clock) });
  const { endpoint } = await ownedStoreWithEndpoint(t, s);
  s.receiver.answer = () => ({ status: 503 });
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  assert.equal((await s.app.db.monitoring.getEndpoint(endpoint.id))?.failingSince?.getTime(), clock);
  clock += 4 * 86_400_000;
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick(); // both due: the first one's retry and the new one
  assert.equal((await s.app.db.monitoring.getEndpoint(endpoint.id))?.disabledAt, null, 'four days are not five');
  clock += 86_400_000 + 1;
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  const ep = (await s.app.db.monitoring.getEndpoint(endpoint.id))!;
  assert.ok(ep.disabledAt);
  assert.match(ep.disabledReason ?? '', /five days/);
  assert.equal(s.mails.length, 1);
  assert.match(s.mails[0].subject, /disabled/);
});

test('a success ends a failing streak', async (t) => {
  const s = await setup(t);
  const { endpoint } = await ownedStoreWithEndpoint(t, s);
  s.receiver.answer = (r) => (r.n === 1 ? { status: 500 } : { status: 202 });
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  assert.ok((await s.app.db.monitoring.getEndpoint(endpoint.id))?.failingSince);
  await tickUntil(s.worker, s.receiver, (r) => r.length >= 2);
  await s.worker.tick();
  assert.equal((await s.app.db.monitoring.getEndpoint(endpoint.id))?.failingSince, null);
});

test('rotation: for 24 hours every message carries two signatures, one per secret, both verifiable', async (t) => {
  let clock = Date.now();
  const s = await setup(t, {}, { now: () => new Date(clock) });
  const { endpoint, secret: oldSecret } = await ownedStoreWithEndpoint(t, s);
  const { secret: newSecret, previousValidUntil } = await rotateSecret(s.deps, 'acct_1', endpoint.id);
  assert.notEqual(newSecret, oldSecret);
  assert.match(newSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(previousValidUntil.getTime(), clock + 24 * 3_600_000);
  s.receiver.secrets = [oldSecret, newSecret];
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  const [during] = s.receiver.received;
  assert.equal(during.signature.split(' ').length, 2);
  assert.deepEqual(during.verifiedBy, [0, 1], 'receivers holding either secret accept it');
  clock += 24 * 3_600_000 + 1;
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await s.worker.tick();
  const after = s.receiver.received[1];
  assert.equal(after.signature.split(' ').length, 1, 'the old secret stops signing after 24 hours');
});

test('refused with a clear message and nothing stored: non-https, private and metadata addresses, credentials, unknown events', async (t) => {
  const s = await setup(t, { SCAN_ALLOW_PRIVATE: '0' });
  const cases: [string, unknown, RegExp][] = [
    ['http://hooks.example.com/x', ['scan.completed'], /must use https/],
    ['https://127.0.0.1/hooks', ['scan.completed'], /refused/],
    ['https://10.0.0.1/hooks', ['scan.completed'], /refused/],
    ['https://169.254.169.254/latest', ['scan.completed'], /refused/],
    ['https://[::1]/hooks', ['scan.completed'], /refused/],
    ['https://user:pw@hooks.example.com/', ['scan.completed'], /credentials/],
    ['https://hooks.example.com:8443/', ['scan.completed'], /Port 8443/],
    ['not a url', ['scan.completed'], /not a valid URL/],
    ['https://hooks.example.com/', ['scan.deleted'], /Unknown event type/],
    ['https://hooks.example.com/', [], /at least one event/],
  ];
  for (const [url, events, message] of cases) {
    await assert.rejects(addEndpoint(s.deps, 'acct_1', { url, events }), (err: unknown) => err instanceof AppError && err.code === 'INVALID_PARAMS' && message.test(err.message), url);
  }
  assert.deepEqual(await s.app.db.monitoring.listEndpoints('acct_1'), []);
});

test('a webhook host that resolves to a private address is refused at connect time and counted as a failure', async (t) => {
  const s = await setup(t, { SCAN_ALLOW_PRIVATE: '0' });
  const worker = createMonitoring({
    config: s.app.config,
    db: s.app.db,
    state: s.app.state,
    log: pino({ level: 'silent' }),
    box: s.deps.box,
    // hooks.evil.test resolves to loopback: the address is judged after the lookup, so the receiver sees nothing.
    lookup: (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]),
  });
  const { endpoint } = await addEndpoint(s.deps, 'acct_1', { url: 'https://hooks.evil.test/x', events: ['scan.completed'] });
  await sendTestEvent(s.deps, 'acct_1', endpoint.id);
  await worker.tick();
  const [attempt] = await s.app.db.monitoring.listAttempts(endpoint.id, 1);
  assert.match(attempt.outcome, /refused: .*resolves to a non-public address/);
  assert.equal(s.receiver.received.length, 0);
});

test('a hanging endpoint of one account delays only itself: another account\'s delivery arrives within 10 poll intervals', async (t) => {
  const POLL_MS = 200;
  // The receiver of account A holds every request for the whole 20 s timeout.
  const s = await setup(t, { WEBHOOK_TIMEOUT_MS: '20000', MONITOR_POLL_MS: String(POLL_MS) });
  const slow = await startReceiver();
  slow.answer = () => 'hang';
  t.after(() => slow.close());
  const slowEndpoints = [];
  for (let i = 0; i < 3; i++) slowEndpoints.push((await addEndpoint(s.deps, 'acct_slow', { url: `${slow.url}?n=${i}`, events: ['scan.completed'] })).endpoint);
  for (let i = 0; i < 10; i++) await sendTestEvent(s.deps, 'acct_slow', slowEndpoints[i % 3].id);
  s.worker.start();
  t.after(() => s.worker.stop());
  await slow.waitFor((all) => all.length >= 2);

  const other = await addEndpoint(s.deps, 'acct_other', { url: s.receiver.url, events: ['scan.completed'] });
  s.receiver.secrets = [other.secret];
  const queued = performance.now();
  await sendTestEvent(s.deps, 'acct_other', other.endpoint.id);
  await s.receiver.waitFor((all) => all.length === 1, 15_000);
  assertWithin("another account's delivery while A's endpoints hang", performance.now() - queued, POLL_MS);
  assert.deepEqual(s.receiver.received[0].verifiedBy, [0]);
  assert.equal(slow.received.length, 2, 'account A: one in flight per endpoint, two per account');
  await slow.close(); // the hanging requests end now, so stopping the worker does not wait for their timeout
});

test('the circuit breaker: after 3 timed-out attempts an endpoint is paused for 5 minutes, then one probe goes out', async (t) => {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const s = await setup(t, { WEBHOOK_TIMEOUT_MS: '300' }, { now });
  s.receiver.answer = () => 'hang';
  const { endpoint, secret } = await addEndpoint(s.deps, 'acct_1', { url: s.receiver.url, events: ['scan.completed'] });
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push(await sendTestEvent(s.deps, 'acct_1', endpoint.id));
  await s.worker.tick();
  assert.equal(s.receiver.received.length, 3, 'three timeouts, then the endpoint is paused');
  const attempts = await s.app.db.monitoring.listAttempts(endpoint.id, 10);
  assert.equal(attempts.length, 3, 'a paused delivery spends no attempt');
  assert.ok(attempts.every((a) => /^timeout after 300 ms$/.test(a.outcome)));
  const deliveries = await Promise.all(ids.map(async (id) => (await s.app.db.monitoring.getDelivery(id))!));
  const unsent = deliveries.filter((d) => d.attempts === 0);
  assert.equal(unsent.length, 2);
  for (const waiting of unsent) {
    assert.equal(waiting.state, 'pending');
    assert.equal(waiting.nextAttemptAt.getTime(), attempts[0].at.getTime() + BREAKER_PAUSE_MS, 'due when the pause ends');
  }
  offset = 10_000; // the retries of the first three are due: they wait too
  await s.worker.tick();
  assert.equal(s.receiver.received.length, 3);

  // After the pause one probe goes out; the receiver answers now, so the breaker closes and the rest follow.
  s.receiver.answer = () => ({ status: 204 });
  s.receiver.secrets = [secret];
  offset = BREAKER_PAUSE_MS + 10_000;
  await s.worker.tick();
  assert.equal(s.receiver.received.length, 3 + 5);
  for (const id of ids) assert.equal((await s.app.db.monitoring.getDelivery(id))?.state, 'delivered');
});

test('a monitored store that starts blocking ChatGPT-User sends agents.changed naming the agent and the page', async (t) => {
  const s = await setup(t);
  const { shop, claim } = await ownedStoreWithEndpoint(t, s, ['agents.changed']);
  await scan(s.app.url, shop);
  await s.worker.tick();
  assert.equal(s.receiver.received.length, 0, 'a first scan has nothing to compare with');

  const home = verifiedHome(claim.token, '<h1>Shop</h1>');
  shop.setRoute('/', (req, res) => {
    const blocked = /ChatGPT-User/.test(String(req.headers['user-agent']));
    res.writeHead(blocked ? 403 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(blocked ? '<title>Forbidden</title>' : home.body);
  });
  const second = await scan(s.app.url, shop);
  await s.worker.tick();
  assert.deepEqual(s.receiver.received.map((r) => r.json?.type), ['agents.changed']);
  const data = s.receiver.received[0].json!.data as { scan_id: number; agents_changed: unknown[] };
  assert.equal(data.scan_id, second.scan_id);
  assert.deepEqual(data.agents_changed, [{ agent: 'ChatGPT-User', page: 'home', from: 'served', to: 'blocked' }]);
  assert.equal(ScanEventData.safeParse(data).success, true, 'the documented data shape');
  assert.deepEqual(s.receiver.received[0].verifiedBy, [0]);
});
