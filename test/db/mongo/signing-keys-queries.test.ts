// What the MongoDB documents of db/mongo/signing-keys-queries.ts mean, run through mingo since no server runs here:
// a key round-trips through its document, a rotation retires exactly the older unretired keys, pruning takes only
// keys retired before the date.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Query, updateMany } from 'mingo';
import type { AnyObject } from 'mingo/types';
import * as Q from '../../../db/mongo/signing-keys-queries.js';
import type { SigningKeyRecord } from '../../../db/signing-keys-repo.js';

const find = (docs: object[], filter: unknown): AnyObject[] => new Query(filter as AnyObject).find<AnyObject>(docs as AnyObject[]).all();
const T = (m: number) => new Date(Date.UTC(2026, 0, 10, 12, m));
const key = (generation: number, retiredAt: Date | null = null): SigningKeyRecord => ({
  generation,
  keyId: `k${generation}`,
  publicJwk: '{}',
  sealedPrivateJwk: 'v1:x',
  createdAt: T(generation),
  notBefore: T(generation),
  retiredAt,
});

describe('mongo signing key queries (mingo)', () => {
  it('a key is its document and back; the generation is the _id', () => {
    const doc = Q.signingKeyToDoc(key(3));
    assert.equal(doc._id, 3);
    assert.deepEqual(Q.signingKeyOf(doc), key(3));
  });

  it('a rotation retires the older keys still unretired, and only those', () => {
    const docs = [Q.signingKeyToDoc(key(1, T(5))), Q.signingKeyToDoc(key(2)), Q.signingKeyToDoc(key(3))] as unknown as AnyObject[];
    assert.deepEqual(find(docs, Q.olderUnretired(3)).map((d) => d._id), [2]);
    updateMany(docs, Q.olderUnretired(3) as AnyObject, Q.retireAt(T(30)) as never);
    assert.deepEqual(docs.map((d) => [d._id, (d.retiredAt as Date | null)?.getTime() ?? null]), [[1, T(5).getTime()], [2, T(30).getTime()], [3, null]]);
  });

  it('pruning matches keys retired before the date, never an unretired one', () => {
    const docs = [Q.signingKeyToDoc(key(1, T(5))), Q.signingKeyToDoc(key(2, T(30))), Q.signingKeyToDoc(key(3))];
    assert.deepEqual(find(docs, Q.retiredBefore(T(10))).map((d) => d._id), [1]);
    assert.deepEqual(find(docs, Q.retiredBefore(T(60))).map((d) => d._id), [1, 2]);
  });
});
