// GET /webhooks.md: the webhook format, linked from llms.txt, with the configured retries and every event type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { EVENT_TYPES } from '../../schemas/webhook-event.js';
import { BREAKER_PAUSE_MS, BREAKER_TIMEOUTS } from '../../monitoring/circuit-breaker.js';
import { MANUAL_SEND_WINDOW_MS, MANUAL_SENDS_PER_WINDOW } from '../../monitoring/endpoints.js';

test('GET /webhooks.md documents headers, signatures, every event, the configured retries; llms.txt links it', async (t) => {
  const app = await startApp(t, { WEBHOOK_RETRY_SCHEDULE: '10s,1m,2h', WEBHOOK_TIMEOUT_MS: '7000' });
  const res = await fetch(`${app.url}/webhooks.md`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
  const text = await res.text();
  for (const type of EVENT_TYPES) assert.match(text, new RegExp(`\\| \`${type.replace('.', '\\.')}\` \\|`));
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) assert.ok(text.includes(`\`${header}\``), header);
  assert.match(text, /retried after 10 s, 1 min, 2 h \(4 attempts in all\)/);
  assert.match(text, /Any 2xx answer within 7 s is success/);
  assert.match(text, /`410 Gone` disables the endpoint/);
  // The figures of fair delivery, written out in the document (well-known/ does not import monitoring/): kept true here.
  assert.ok(text.includes('one request at a time'));
  assert.ok(text.includes(`After ${BREAKER_TIMEOUTS} timeouts in a row the endpoint is paused for ${BREAKER_PAUSE_MS / 60_000} min`));
  assert.ok(text.includes(`at most ${MANUAL_SENDS_PER_WINDOW} per account every ${MANUAL_SEND_WINDOW_MS / 60_000} min`));
  const llms = await (await fetch(`${app.url}/llms.txt`)).text();
  assert.ok(llms.includes('[Webhooks](http://localhost:3000/webhooks.md)'));
});
