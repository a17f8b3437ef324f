// The rolling 30-day Pro quota on the real embedded store, without HTTP: an account's keys, its sessions and the
// monitoring worker spend one counter; a refusal spends nothing; a day's scans leave the window 30 days later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { rollingQuota, spendProScan, QUOTA_WINDOW_SECONDS } from '../../accounts/quota.js';

const DAY = 86_400_000;

async function openStore(t: { after: (fn: () => Promise<void>) => void }): Promise<SqliteRepo> {
  const db = new SqliteRepo(':memory:');
  await db.init();
  t.after(() => db.close());
  return db;
}

test('a monitor scan spends the account quota its keys spend, and a used-up quota refuses without spending', async (t) => {
  const db = await openStore(t);
  let clock = Date.UTC(2026, 10, 22, 12);
  const now = () => clock;
  const quota = rollingQuota(db, 3, now);
  // A key of the account spends two units; the worker's scan (spendProScan) is the third.
  assert.equal((await quota.spend({ accountId: 'acct_a', keyId: 'key_1' })).spent, true);
  assert.equal((await quota.spend({ accountId: 'acct_a', keyId: 'key_2' })).spent, true);
  assert.equal(await spendProScan(db, 3, 'acct_a', now), true);
  assert.equal(await spendProScan(db, 3, 'acct_a', now), false);
  const refused = await quota.spend({ accountId: 'acct_a', keyId: null });
  assert.deepEqual([refused.spent, refused.state.used], [false, 3], 'a refusal leaves the count where it was');
  assert.equal((await quota.state({ accountId: 'acct_a', keyId: null })).used, 3);

  // Another account, and a key without an account, each have their own counter.
  assert.equal(await spendProScan(db, 3, 'acct_b', now), true);
  assert.equal((await quota.state({ accountId: null, keyId: 'key_1' })).used, 0);

  // The window is today and the 29 days before it: today's scans leave it 30 days from now.
  clock += 29 * DAY;
  assert.equal((await quota.state({ accountId: 'acct_a', keyId: null })).used, 3);
  clock += DAY;
  assert.equal((await quota.state({ accountId: 'acct_a', keyId: null })).used, 0);
  assert.equal(await spendProScan(db, 3, 'acct_a', now), true);
});

test('the quota resets a unit at the end of each day, and its window is 30 days', async (t) => {
  const db = await openStore(t);
  const noon = Date.UTC(2026, 10, 22, 12);
  const state = await rollingQuota(db, 10, () => noon).state({ accountId: 'acct_a', keyId: null });
  assert.equal(state.resetSeconds, 12 * 3600);
  assert.equal(state.key, 'pro-30d:acct:acct_a');
  assert.equal(QUOTA_WINDOW_SECONDS, 30 * 86_400);
});
