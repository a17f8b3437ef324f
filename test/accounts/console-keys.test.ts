// Pro keys of a console account over a store whose every call takes a turn of the event loop, as a networked
// store's calls do (MongoDB, or several instances on one store): key creations sent at once cannot pass the
// 10-key check together, and a refused one leaves nothing behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { createAccountKey, MAX_ACTIVE_KEYS } from '../../accounts/console-keys.js';

/** The same store, with a turn of the event loop before each call of the repository and of its accounts part. */
function slowed<T extends object>(target: T): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (prop === 'accounts') return slowed(value as object);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await turn();
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
}

test('key creations sent at once cannot pass the active-key limit together; refused ones make no key', async (t) => {
  const real = new SqliteRepo(':memory:');
  await real.init();
  t.after(() => real.close());
  const db = slowed(real);
  const account = await real.accounts.ensureAccount('race@shop.test', new Date(), 'acct_race');
  for (let i = 0; i < MAX_ACTIVE_KEYS - 1; i++) await createAccountKey(db, account, `k${i}`);

  const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => createAccountKey(db, account, `at-once-${i}`)));
  const made = results.filter((r) => r.status === 'fulfilled');
  assert.equal(made.length, 1, `exactly one of the simultaneous creations made the last key (${results.map((r) => r.status).join(', ')})`);
  for (const r of results) {
    if (r.status === 'rejected') assert.match((r.reason as Error).message, /at most 10 active keys|being created/);
  }
  const active = (await real.accounts.listAccountKeys(account.id)).filter((k) => !k.revokedAt);
  assert.equal(active.length, MAX_ACTIVE_KEYS);
  assert.equal((await real.listApiKeys()).filter((k) => !k.revokedAt).length, MAX_ACTIVE_KEYS, 'no unlinked key was made');
  await assert.rejects(createAccountKey(db, account, 'eleventh'), /at most 10 active keys/, 'the limit holds afterwards, and no lock is left held');
});
