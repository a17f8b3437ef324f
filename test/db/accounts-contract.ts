// The behaviour every adapter's AccountRepo must show (accounts, sign-in tokens, sessions, account keys and
// the scans page), run against SQLite always and MongoDB where MONGODB_URI is set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Repository } from '../../db/repo.js';
import { sha256Hex } from '../../accounts/secrets.js';
import { withRepoOf } from './contract.js';

const T0 = Date.parse('2026-01-10T12:00:00.000Z');
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);

async function scan(repo: Repository, host: string, score: number, owner: string | null, keyId: string | null = null, minutes = 0) {
  const id = await repo.allocateScanId();
  await repo.saveScan({
    id, host, vertical: null, score, grade: 'C', capped: false, agentReady: false,
    createdAt: at(minutes), ownerKeyId: keyId, ownerAccountId: owner, report: { id },
  });
  return id;
}

export function runAccountRepoContract(name: string, makeRepo: () => Promise<Repository>, opts: { skip?: string | false } = {}): void {
  if (opts.skip) {
    describe(name, () => it('AccountRepo contract', { skip: opts.skip }, () => undefined));
    return;
  }
  const withRepo = withRepoOf(makeRepo);

  describe(name, () => {
    it('creates one account per address, also when two first sign-ins race', withRepo(async (repo) => {
      const [a, b] = await Promise.all([
        repo.accounts.ensureAccount('m@shop.test', at(0), 'acct_one'),
        repo.accounts.ensureAccount('m@shop.test', at(1), 'acct_two'),
      ]);
      assert.equal(a.id, b.id);
      assert.deepEqual(await repo.accounts.getAccount(a.id), a);
      assert.deepEqual(await repo.accounts.findAccountByEmail('m@shop.test'), a);
      assert.equal(await repo.accounts.findAccountByEmail('other@shop.test'), null);
      assert.equal(await repo.accounts.getAccount('acct_nope'), null);
    }));

    it('a sign-in token is consumed once, only for its address and only before it expires', withRepo(async (repo) => {
      const tokenHash = sha256Hex('t1');
      await repo.accounts.putSignInToken({ tokenHash, email: 'a@shop.test', returnTo: '/console/keys', createdAt: at(0), expiresAt: at(15) });
      assert.equal((await repo.accounts.peekSignInToken(tokenHash, at(1)))?.email, 'a@shop.test');
      assert.equal(await repo.accounts.consumeSignInToken(tokenHash, 'b@shop.test', at(1)), null, 'another address');
      assert.equal(await repo.accounts.consumeSignInToken(tokenHash, 'a@shop.test', at(15)), null, 'expired');
      assert.ok(await repo.accounts.peekSignInToken(tokenHash, at(2)), 'refusals left it in place');
      const used = await repo.accounts.consumeSignInToken(tokenHash, 'a@shop.test', at(2));
      assert.equal(used?.returnTo, '/console/keys');
      assert.equal(await repo.accounts.consumeSignInToken(tokenHash, 'a@shop.test', at(3)), null, 'second use');
      assert.equal(await repo.accounts.peekSignInToken(tokenHash, at(3)), null);
    }));

    it('two concurrent consumes of one token: exactly one wins', withRepo(async (repo) => {
      const tokenHash = sha256Hex('race');
      await repo.accounts.putSignInToken({ tokenHash, email: 'r@shop.test', returnTo: null, createdAt: at(0), expiresAt: at(15) });
      const results = await Promise.all(Array.from({ length: 5 }, () => repo.accounts.consumeSignInToken(tokenHash, 'r@shop.test', at(1))));
      assert.equal(results.filter(Boolean).length, 1);
    }));

    it('sessions: found while live, slid, ended one by one or all at once, pruned when expired', withRepo(async (repo) => {
      const base = { accountId: 'acct_s', createdAt: at(0), lastSeenAt: at(0), absoluteExpiresAt: at(90 * 24 * 60) };
      await repo.accounts.putSession({ ...base, idHash: 'h1', expiresAt: at(60) });
      await repo.accounts.putSession({ ...base, idHash: 'h2', expiresAt: at(60) });
      await repo.accounts.putSession({ ...base, idHash: 'h3', accountId: 'acct_other', expiresAt: at(60) });
      assert.equal((await repo.accounts.findSession('h1', at(1)))?.accountId, 'acct_s');
      assert.equal(await repo.accounts.findSession('h1', at(60)), null, 'expired');
      await repo.accounts.touchSession('h1', at(30), at(120));
      const slid = await repo.accounts.findSession('h1', at(90));
      assert.deepEqual([slid?.lastSeenAt, slid?.expiresAt], [at(30), at(120)]);
      await repo.accounts.deleteSession('h1');
      assert.equal(await repo.accounts.findSession('h1', at(1)), null);
      assert.equal(await repo.accounts.deleteAccountSessions('acct_s'), 1);
      assert.equal(await repo.accounts.findSession('h2', at(1)), null);
      assert.ok(await repo.accounts.findSession('h3', at(1)), 'another account keeps its session');
      await repo.accounts.putSignInToken({ tokenHash: 'old', email: 'o@shop.test', returnTo: null, createdAt: at(0), expiresAt: at(15) });
      await repo.accounts.pruneExpired(at(61));
      assert.equal(await repo.accounts.findSession('h3', at(0)), null, 'pruned');
      assert.equal(await repo.accounts.peekSignInToken('old', at(0)), null, 'pruned');
    }));

    it('account keys join their key, newest first, with last use', withRepo(async (repo) => {
      for (const [i, id] of ['k1', 'k2'].entries()) {
        await repo.putApiKey({ id, keyHash: sha256Hex(id), owner: 'k@shop.test', plan: 'pro', createdAt: at(i), revokedAt: null });
        await repo.accounts.putAccountKey({ keyId: id, accountId: 'acct_k', name: `Key ${id}`, lastUsedAt: null });
      }
      await repo.revokeApiKey('k1', at(5));
      await repo.accounts.markKeyUsed('k2', at(7));
      const keys = await repo.accounts.listAccountKeys('acct_k');
      assert.deepEqual(keys.map((k) => [k.keyId, k.name, k.revokedAt, k.lastUsedAt]), [
        ['k2', 'Key k2', null, at(7)],
        ['k1', 'Key k1', at(5), null],
      ]);
      assert.equal((await repo.accounts.accountKeyOf('k1'))?.accountId, 'acct_k');
      assert.equal(await repo.accounts.accountKeyOf('nope'), null);
      assert.deepEqual(await repo.accounts.listAccountKeys('acct_none'), []);
    }));

    it('the scans page: newest first, keyset pages, host filter, previous score of the host, counts by key', withRepo(async (repo) => {
      const first = await scan(repo, 'a.test', 40, null); // someone else's earlier scan of a.test
      const s1 = await scan(repo, 'a.test', 50, 'acct_p', 'k1', 1);
      const s2 = await scan(repo, 'b.test', 70, 'acct_p', null, 2);
      await scan(repo, 'b.test', 10, 'acct_q', null, 3);
      const s3 = await scan(repo, 'a.test', 65, 'acct_p', 'k1', 4);
      const page = await repo.accounts.scansOfAccount('acct_p', { limit: 2 });
      assert.deepEqual(page.map((s) => [s.id, s.host, s.score, s.previousScore, s.keyId]), [
        [s3, 'a.test', 65, 50, 'k1'],
        [s2, 'b.test', 70, null, null],
      ]);
      assert.deepEqual(page[0].createdAt, at(4));
      const next = await repo.accounts.scansOfAccount('acct_p', { limit: 2, beforeId: s2 });
      assert.deepEqual(next.map((s) => [s.id, s.previousScore]), [[s1, 40]]);
      const onlyA = await repo.accounts.scansOfAccount('acct_p', { limit: 50, host: 'a.test' });
      assert.deepEqual(onlyA.map((s) => s.id), [s3, s1]);
      assert.ok(first < s1);
      const counts = await repo.accounts.scanCountsByKey('acct_p', at(2));
      assert.deepEqual([...counts.entries()].sort(), [['k1', 1], [null, 1]].sort());
    }));

    it('scans made before signing in: listed while no one holds them, attached once, never taken from another owner', withRepo(async (repo) => {
      const mine = await scan(repo, 'a.test', 50, null, null, 1);
      const alsoMine = await scan(repo, 'b.test', 70, null, null, 2);
      const others = await scan(repo, 'c.test', 60, 'acct_other', null, 3);
      const keys = await scan(repo, 'd.test', 30, null, 'k_unlinked', 4);
      const asked = [mine, alsoMine, others, keys, 999_999, -1, 1.5];
      const listed = await repo.accounts.unownedScans(asked);
      assert.deepEqual(listed.map((s) => [s.id, s.host, s.score, s.grade]), [[alsoMine, 'b.test', 70, 'C'], [mine, 'a.test', 50, 'C']]);
      assert.deepEqual(listed[0].createdAt, at(2));

      // Two accounts attaching the same scans at once: each scan goes to exactly one of them.
      const [a, b] = await Promise.all([repo.accounts.attachScansToAccount('acct_a', asked), repo.accounts.attachScansToAccount('acct_b', asked)]);
      assert.equal(a + b, 2);
      const winner = a === 2 ? 'acct_a' : 'acct_b';
      assert.deepEqual((await repo.accounts.scansOfAccount(winner, { limit: 50 })).map((s) => [s.id, s.keyId]), [[alsoMine, null], [mine, null]]);
      assert.equal(await repo.accounts.attachScansToAccount('acct_c', asked), 0, 'attached scans are not moved');
      assert.deepEqual(await repo.accounts.unownedScans(asked), []);
      assert.deepEqual((await repo.accounts.scansOfAccount('acct_other', { limit: 50 })).map((s) => s.id), [others]);
      assert.equal((await repo.getScan(keys))?.ownerAccountId ?? null, null, 'a key’s scan stays with its key');
      assert.equal(await repo.accounts.attachScansToAccount('acct_a', []), 0);
    }));

    it('deleting an account revokes its keys, ends its sessions and keeps its scans public without the link', withRepo(async (repo) => {
      const account = await repo.accounts.ensureAccount('d@shop.test', at(0), 'acct_d');
      await repo.putApiKey({ id: 'kd', keyHash: sha256Hex('kd'), owner: 'd@shop.test', plan: 'pro', createdAt: at(0), revokedAt: null });
      await repo.accounts.putAccountKey({ keyId: 'kd', accountId: account.id, name: 'CI', lastUsedAt: null });
      await repo.accounts.putSession({ idHash: 'hd', accountId: account.id, createdAt: at(0), lastSeenAt: at(0), expiresAt: at(60), absoluteExpiresAt: at(600) });
      const id = await scan(repo, 'd.test', 55, account.id, 'kd');
      await repo.accounts.deleteAccount(account.id, at(10));
      assert.equal(await repo.accounts.getAccount(account.id), null);
      assert.deepEqual((await repo.findApiKey(sha256Hex('kd')))?.revokedAt, at(10));
      assert.equal(await repo.accounts.findSession('hd', at(1)), null);
      assert.deepEqual(await repo.accounts.scansOfAccount(account.id, { limit: 50 }), []);
      const kept = await repo.getScan(id);
      assert.equal(kept?.score, 55);
      assert.equal((await repo.latestByHost('d.test'))?.scanId, id);
      // The address can sign up again and starts empty.
      const again = await repo.accounts.ensureAccount('d@shop.test', at(20), 'acct_d2');
      assert.equal(again.id, 'acct_d2');
    }));
  });
}
