// The behaviour every adapter's SigningKeyRepo must show (the scanner's Web Bot Auth keys), run against SQLite
// always and MongoDB where MONGODB_URI is set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Repository } from '../../db/repo.js';
import type { SigningKeyRecord } from '../../db/signing-keys-repo.js';
import { withRepoOf } from './contract.js';

const T0 = Date.parse('2026-01-10T12:00:00.000Z');
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);

const key = (generation: number, minutes: number, notBefore = minutes): SigningKeyRecord => ({
  generation,
  keyId: `kid-${generation}-${minutes}`,
  publicJwk: JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: `x${generation}` }),
  sealedPrivateJwk: `v1:sealed-${generation}`,
  createdAt: at(minutes),
  notBefore: at(notBefore),
  retiredAt: null,
});

export function runSigningKeysContract(name: string, makeRepo: () => Promise<Repository>, opts: { skip?: string | false } = {}): void {
  if (opts.skip) {
    describe(name, () => it('SigningKeyRepo contract', { skip: opts.skip }, () => undefined));
    return;
  }
  const withRepo = withRepoOf(makeRepo);

  describe(name, () => {
    it('starts empty and keeps a key exactly as given', withRepo(async (repo) => {
      assert.deepEqual(await repo.signingKeys.list(), []);
      assert.equal(await repo.signingKeys.add(key(1, 0)), true);
      assert.deepEqual(await repo.signingKeys.list(), [key(1, 0)]);
    }));

    it('makes one key of a generation when two instances race for it; the loser writes nothing', withRepo(async (repo) => {
      const results = await Promise.all([repo.signingKeys.add(key(1, 0)), repo.signingKeys.add(key(1, 1))]);
      assert.deepEqual([...results].sort(), [false, true]);
      const keys = await repo.signingKeys.list();
      assert.equal(keys.length, 1);
      assert.equal(keys[0].keyId, results[0] ? 'kid-1-0' : 'kid-1-1');
    }));

    it('a newer key retires the older ones at its notBefore, and pruning drops only keys retired before a date', withRepo(async (repo) => {
      await repo.signingKeys.add(key(1, 0));
      await repo.signingKeys.add(key(2, 60, 70));
      let keys = await repo.signingKeys.list();
      assert.deepEqual(keys.map((k) => [k.generation, k.retiredAt?.toISOString() ?? null]), [[1, at(70).toISOString()], [2, null]]);
      await repo.signingKeys.add(key(3, 120, 130));
      keys = await repo.signingKeys.list();
      assert.deepEqual(keys.map((k) => [k.generation, k.retiredAt?.toISOString() ?? null]), [[1, at(70).toISOString()], [2, at(130).toISOString()], [3, null]]);
      assert.equal(await repo.signingKeys.pruneRetired(at(70)), 0, 'retired exactly then is kept');
      assert.equal(await repo.signingKeys.pruneRetired(at(100)), 1);
      assert.deepEqual((await repo.signingKeys.list()).map((k) => k.generation), [2, 3]);
    }));
  });
}
