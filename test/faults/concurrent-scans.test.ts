// security.md F5: duplicate concurrent scans of one store (5 Pro keys at once): no 5xx, distinct scan ids, every
// answer stored as answered, and the index's latest entry is the newest scan. Plus the tie the concurrency makes
// likely: two scans of one host that started in the same millisecond.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { brochureStore } from '../fixtures/stores.js';
import { createApiKey } from '../../server/keys.js';
import { SqliteRepo } from '../../store/sqlite.js';
import type { ScanResult } from '../../schemas/scan-result.js';

test('F5: 5 concurrent scans of one store with 5 Pro keys: no 5xx, distinct ids, each stored as answered, latest is the newest', async (t) => {
  const app = await startApp(t);
  const shop = await startStoreFrom(brochureStore);
  t.after(() => shop.close());
  const keys = await Promise.all(Array.from({ length: 5 }, (_, i) => createApiKey(app.store, `f5-${i}@shop.test`)));
  const answers = await Promise.all(
    keys.map(async ({ key }) => {
      const res = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`, { headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, body: (await res.json()) as ScanResult };
    }),
  );
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
  const ids = answers.map((a) => a.body.scan_id);
  assert.equal(new Set(ids).size, 5, `ids ${ids}`);
  t.diagnostic(`home page fetched ${shop.hits('/')} times for 5 scans (no single-flight: 2 per scan)`);
  for (const a of answers) {
    const stored = await (await fetch(`${app.url}/api/v1/scan/${a.body.scan_id}.json`)).json();
    assert.deepEqual(stored, a.body);
  }
  const newest = Math.max(...answers.map((a) => Date.parse(a.body.scanned_at)));
  const latest = await app.store.latestByHost(answers[0].body.host);
  assert.ok(latest);
  assert.equal(latest.updatedAt.getTime(), newest, 'latest is the most recent scan');
  assert.ok(answers.some((a) => a.body.scan_id === latest.scanId && Date.parse(a.body.scanned_at) === newest));
  assert.equal(await app.store.countStores(), 1);
});

// Two scans of one host in the same millisecond: latest must be the one a relist would rebuild (the higher id),
// so the public index does not change on a relist.
test(
  'two scans of one host started in the same millisecond: latest is the same before and after a delist + relist',
  async () => {
    const repo = new SqliteRepo(':memory:');
    await repo.init();
    const at = new Date('2026-11-01T00:00:00Z');
    const first = await repo.allocateScanId();
    const second = await repo.allocateScanId();
    const scan = (id: number, score: number) => ({ id, host: 'tie.test', vertical: null, score, grade: 'C', capped: false, agentReady: false, createdAt: at, ownerKeyId: null, report: { id } });
    await repo.saveScan(scan(second, 60)); // the later id finishes first …
    await repo.saveScan(scan(first, 50)); // … and the earlier one is saved after it
    const before = (await repo.latestByHost('tie.test'))?.scanId;
    await repo.setDelisted('tie.test', true);
    await repo.setDelisted('tie.test', false);
    const after = (await repo.latestByHost('tie.test'))?.scanId;
    await repo.close();
    assert.equal(before, after, `latest was ${before}, after a relist ${after}`);
  },
);
