// Two service instances, real processes on one SQLite data folder, audit a 1,000-page catalog together; one is
// killed (SIGKILL) mid-run. The other finishes: every page is in the result once, the page the dead instance held
// is taken again when its lease runs out, and the store saw one request at a time, never two closer than the rule,
// across both instances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, waitReady } from '../support/child-server.js';
import { startCatalogStore } from '../helpers/catalog-store.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { createAccountKey } from '../../accounts/console-keys.js';

const DELAY_MS = 25;

async function pagesDoneBy(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('store_readiness_crawl_items_total{kind="audit_page",outcome="done"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

test('two instances on one data folder audit 1,000 pages; one killed mid-run, nothing lost, the per-host rule holds', { timeout: 600_000 }, async (t) => {
  const store = await startCatalogStore({ products: 1000, priceless: 2 });
  t.after(() => store.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-crawl-'));
  const db = new SqliteRepo(join(dataDir, 'store.db'));
  await db.init();
  const account = await db.accounts.ensureAccount('owner@shop.example', new Date(), 'acct_owner');
  const { key } = await createAccountKey(db, account, 'test');
  t.after(() => db.close());

  const env = { SCAN_ALLOW_PRIVATE: '1', CRAWL_DELAY_MS: String(DELAY_MS), CRAWL_POLL_MS: '50', CRAWL_WORKERS: '2', MONITOR: 'off' };
  const [a, b] = await Promise.all([startChildServer({ env, dataDir, startTimeoutMs: 240_000 }), startChildServer({ env, dataDir, startTimeoutMs: 240_000 })]);
  t.after(() => Promise.all([a.stop(10_000), b.stop(10_000)]));
  await Promise.all([waitReady(a.url), waitReady(b.url)]);

  const started = await fetch(`${a.url}/api/v1/audits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: store.url, max_pages: 1000 }),
  });
  assert.equal(started.status, 202);
  const { audit_id: id } = (await started.json()) as { audit_id: string };

  // Once a third of the pages are done, the instance that has read more of them dies, most likely holding a page
  // and the host's turn; the other must take over when the lease runs out.
  const until = Date.now() + 480_000;
  let done: number[];
  while ((done = await Promise.all([pagesDoneBy(a.url), pagesDoneBy(b.url)]))[0] + done[1] < 300) {
    assert.ok(Date.now() < until, `pages done by the instances: ${done}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const [killed, survivor] = done[0] >= done[1] ? [a, b] : [b, a];
  const byKilled = await pagesDoneBy(killed.url);
  killed.kill('SIGKILL');
  await killed.exited;

  let audit: { status: string; result: { pages_audited: number; pages_found: number; sampled: boolean; findings: { url_pattern: string }[] } | null; progress: { done: number } };
  for (;;) {
    audit = (await (await fetch(`${survivor.url}/api/v1/audits/${id}`, { headers: { connection: 'close' } })).json()) as typeof audit;
    if (audit.status === 'done' || audit.status === 'failed') break;
    assert.ok(Date.now() < until, `audit still ${audit.status}: ${JSON.stringify(audit.progress)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(audit.status, 'done');
  assert.deepEqual([audit.result!.pages_found, audit.result!.pages_audited, audit.result!.sampled], [1000, 1000, false]);
  assert.deepEqual(audit.result!.findings.map((f) => f.url_pattern), ['/t2/*']);

  // Every page in the result once, whichever instance read it.
  const results = await db.queue.results(id, 0, 2000);
  assert.equal(results.length, 1000);
  assert.equal(new Set(results.map((r) => r.url)).size, 1000);
  assert.ok(results.every((r) => r.state === 'done'), 'no page lost or failed');
  const asked = store.visits.filter((v) => v.path.includes('/item-')).map((v) => v.path);
  assert.equal(new Set(asked).size, 1000);
  assert.ok(asked.length <= 1001, `a page is asked twice at most once (the one the killed instance held): ${asked.length}`);
  assert.ok(byKilled > 0 && (await pagesDoneBy(survivor.url)) > 0, 'both did part of the work');

  assert.equal(store.maxInFlight(), 1, 'one request in flight across both instances');
  assert.ok(store.minGapMs() >= DELAY_MS - 2, `closest gap ≥ ${DELAY_MS} ms: ${store.closestPair()}`);
});
