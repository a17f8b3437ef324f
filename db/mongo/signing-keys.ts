// SigningKeyRepo on MongoDB: one document a key in `signing_keys`, every filter and update from
// signing-keys-queries.ts. Adding a key and retiring the older ones is one transaction on a replica set; on a
// standalone the insert goes first, so a retry after a failure half-way retires what was left.
import { MongoServerError, type Collection, type Db } from 'mongodb';
import * as Q from './signing-keys-queries.js';
import type { SigningKeyRecord, SigningKeyRepo } from '../signing-keys-repo.js';
import type { MongoRunner } from './runner.js';

export const SIGNING_KEYS_COLLECTION = 'signing_keys';

const isDuplicateKey = (err: unknown): boolean => err instanceof MongoServerError && err.code === 11000;

export class MongoSigningKeys implements SigningKeyRepo {
  private readonly keys: Collection<Q.SigningKeyDoc>;

  constructor(
    db: Db,
    private readonly run: MongoRunner,
  ) {
    this.keys = db.collection<Q.SigningKeyDoc>(SIGNING_KEYS_COLLECTION);
  }

  async list(): Promise<SigningKeyRecord[]> {
    return (await this.keys.find({}, this.run.opts()).sort(Q.SIGNING_KEY_SORT).toArray()).map(Q.signingKeyOf);
  }

  async add(key: SigningKeyRecord): Promise<boolean> {
    try {
      await this.run.tx(async (session) => {
        await this.keys.insertOne(Q.signingKeyToDoc(key), this.run.opts(session));
        await this.keys.updateMany(Q.olderUnretired(key.generation), Q.retireAt(key.notBefore), this.run.opts(session));
      });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false; // another instance or command made this generation first
      throw err;
    }
  }

  async pruneRetired(before: Date): Promise<number> {
    return (await this.keys.deleteMany(Q.retiredBefore(before), this.run.opts())).deletedCount;
  }
}
