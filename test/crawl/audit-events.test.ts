// A small deep audit around its edges: a second start while it runs is 409 AUDIT_RUNNING; a store answering 429 with
// Retry-After pauses its host that long (measured at the store); the finished audit is read through MCP (both SDK
// lines' server, the v1 client here) and announced by a signed audit.completed webhook; a second audit compares
// itself with the first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startApp, getJson } from '../helpers/start-app.js';
import { startCatalogStore } from '../helpers/catalog-store.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { createCrawl } from '../../server/crawl.js';
import { createMonitoring, secretBoxFor } from '../../server/monitoring.js';
import { addEndpoint } from '../../monitoring/endpoints.js';
import { proKey, waitForAudit } from '../helpers/audits.js';

test('409 while running, a 429 pauses the host, MCP reads the result, audit.completed is delivered, the next audit compares', { timeout: 180_000 }, async (t) => {
  const store = await startCatalogStore({ products: 40, priceless: 1, throttle: { times: 1, retryAfter: 1 } });
  t.after(() => store.close());
  const app = await startApp(t, { CRAWL_DELAY_MS: '20', CRAWL_POLL_MS: '50' });
  const key = await proKey(app);
  const accountId = (await app.db.accounts.findAccountByEmail('owner@shop.example'))!.id;
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const box = secretBoxFor(app.config);
  const { secret } = await addEndpoint({ db: app.db, config: app.config, box }, accountId, { url: receiver.url, events: ['audit.completed'] });
  receiver.secrets.push(secret);
  const log = pino({ level: 'silent' });
  const crawl = createCrawl({ config: app.config, db: app.db, log });
  t.after(() => crawl.stop());
  const monitoring = createMonitoring({ config: app.config, db: app.db, log, state: app.state, box });

  const start = () =>
    getJson(`${app.url}/api/v1/audits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: store.url, max_pages: 20 }),
    });
  const first = await start();
  assert.equal(first.status, 202);
  const again = await start();
  assert.equal(again.status, 409);
  assert.equal(again.body.code, 'AUDIT_RUNNING');
  assert.equal(again.body.next_action.endpoint, `/api/v1/audits/${first.body.audit_id}`);

  crawl.start();
  const done = await waitForAudit(app, first.body.audit_id, 120_000);
  assert.equal(done.status, 'done');
  assert.equal(done.result!.pages_audited, 20, 'the page answered 429 was read again later');
  const throttled = store.visits.findIndex((v) => v.path.includes('/item-'));
  const next = store.visits[throttled + 1];
  assert.ok(next.start - store.visits[throttled].end >= 1000 - 2, `Retry-After 1 s held: ${(next.start - store.visits[throttled].end).toFixed(0)} ms`);

  const mcp = await connectMcp(t, app);
  const read = await mcp.callTool({ name: 'get_deep_audit', arguments: { audit_id: first.body.audit_id } });
  assert.ok(!read.isError, JSON.stringify(read.content));
  const structured = read.structuredContent as { result: { coverage: { fact: string; percent: number }[] } };
  assert.equal(structured.result.coverage.find((c) => c.fact === 'price')!.percent, done.result!.coverage.find((c) => c.fact === 'price')!.percent);
  const missing = await mcp.callTool({ name: 'get_deep_audit', arguments: { audit_id: 'aud_AAAAAAAAAAAAAAAAAAAAAA' } });
  assert.ok(missing.isError);

  await monitoring.tick();
  await receiver.waitFor((all) => all.some((r) => r.json?.type === 'audit.completed'));
  const event = receiver.received.find((r) => r.json?.type === 'audit.completed')!;
  assert.equal(event.id, `msg_${first.body.audit_id}_completed`);
  assert.deepEqual(event.verifiedBy, [0], 'signed with the endpoint\'s secret');
  assert.equal(event.json!.data.audit_id, first.body.audit_id);
  assert.equal((event.json!.data.coverage as Record<string, number>).name, 100);

  const second = await start();
  assert.equal(second.status, 202);
  const compared = await waitForAudit(app, second.body.audit_id, 120_000);
  assert.equal(compared.result!.changes?.previous_audit_id, first.body.audit_id);
  assert.ok(compared.result!.changes!.pages_compared > 0);
});
