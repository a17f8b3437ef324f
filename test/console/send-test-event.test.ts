// "Send test event" and "Resend": POST, redirect, GET, so a reload shows the page again and sends nothing; and the
// instance's monitoring worker is woken, so the event reaches the receiver at once instead of at the next poll
// (set here to a minute, far beyond what the test waits).
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { createMonitoring } from '../../server/monitoring.js';
import type { MonitoringWorker } from '../../monitoring/worker.js';

const WAIT_MS = 5000; // the poll is 60 s: an event that arrives within 5 s was sent because the worker was woken

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

test('Send test event: redirected to a page that says it is being sent, delivered at once, and a reload sends nothing more', async (t) => {
  const inbox = await startInbox(t);
  let worker: MonitoringWorker | null = null;
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, MONITOR_POLL_MS: '60000' }, { selfBaseUrl: true, wakeMonitoring: () => worker?.wake() });
  worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }) });
  worker.start();
  t.after(() => worker?.stop());
  const client = new ConsoleClient(app.url);
  await client.signIn(inbox, 'owner@shop.test');
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const csrf = await client.csrf('/console/webhooks');
  const created = await client.post('/console/webhooks', { csrf, url: receiver.url, events: 'scan.completed' });
  assert.equal(created.status, 201, created.text.slice(0, 300));
  const endpointId = /\/console\/webhooks\/(we_[A-Za-z0-9_-]+)"/.exec(created.text)?.[1] ?? (await app.db.monitoring.listEndpoints((await app.db.accounts.findAccountByEmail('owner@shop.test'))!.id))[0].id;

  const sent = await client.post(`/console/webhooks/${endpointId}/test`, { csrf });
  assert.equal(sent.status, 303, 'POST, then redirect');
  const location = sent.headers.get('location');
  assert.equal(location, `/console/webhooks/${endpointId}?sent=test`);
  const page = await client.get(location!);
  assert.match(page.text, /A webhook\.test event is being sent now; reload in a moment to see the attempt below\./);
  assert.doesNotMatch(page.text, /a few seconds/);
  assert.ok(await until(() => receiver.received.length === 1, WAIT_MS), `delivered within ${WAIT_MS} ms, not at the next poll`);

  // Reloading the page after the redirect is a GET: nothing is queued or sent again.
  await client.get(location!);
  await client.get(location!);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(receiver.received.length, 1);

  const after = await client.get(`/console/webhooks/${endpointId}`);
  const delivery = /name="delivery" value="([^"]+)"/.exec(after.text)?.[1];
  assert.ok(delivery);
  const resent = await client.post(`/console/webhooks/${endpointId}/resend`, { csrf, delivery });
  assert.equal(resent.status, 303);
  assert.equal(resent.headers.get('location'), `/console/webhooks/${endpointId}?sent=resend`);
  assert.ok(await until(() => receiver.received.length === 2, WAIT_MS));
  assert.equal(receiver.received[1].id, receiver.received[0].id, 'the same webhook-id');
});
