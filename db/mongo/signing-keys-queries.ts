// Every document MongoSigningKeys sends to the server, as pure functions whose meaning is checked with mingo
// (test/db/mongo/signing-keys-queries.test.ts). The generation is the _id, so two instances racing to add the same
// generation collide on the primary key and exactly one key is made.
import type { Filter, UpdateFilter } from 'mongodb';
import type { SigningKeyRecord } from '../signing-keys-repo.js';

export interface SigningKeyDoc {
  _id: number; // the generation
  keyId: string;
  publicJwk: string;
  sealedPrivateJwk: string;
  createdAt: Date;
  notBefore: Date;
  retiredAt: Date | null;
}

export const SIGNING_KEY_SORT = { _id: 1 } as const;

export function signingKeyToDoc(k: SigningKeyRecord): SigningKeyDoc {
  return {
    _id: k.generation,
    keyId: k.keyId,
    publicJwk: k.publicJwk,
    sealedPrivateJwk: k.sealedPrivateJwk,
    createdAt: k.createdAt,
    notBefore: k.notBefore,
    retiredAt: k.retiredAt,
  };
}

export function signingKeyOf(d: SigningKeyDoc): SigningKeyRecord {
  return {
    generation: d._id,
    keyId: d.keyId,
    publicJwk: d.publicJwk,
    sealedPrivateJwk: d.sealedPrivateJwk,
    createdAt: d.createdAt,
    notBefore: d.notBefore,
    retiredAt: d.retiredAt ?? null,
  };
}

/** The keys older than `generation` that no newer key has retired yet. */
export function olderUnretired(generation: number): Filter<SigningKeyDoc> {
  return { _id: { $lt: generation }, retiredAt: { $eq: null } };
}

export function retireAt(at: Date): UpdateFilter<SigningKeyDoc> {
  return { $set: { retiredAt: at } };
}

/** Retired keys whose retirement is older than `before`. */
export function retiredBefore(before: Date): Filter<SigningKeyDoc> {
  return { retiredAt: { $type: 'date', $lt: before } };
}
