// AccountRepo on MongoDB: thin, every document from accounts-queries.ts. Tokens and sessions expire by
// TTL index as well as by the expiresAt filter on every read. Reads go to the primary (the client's default),
// so a revoked key or ended session is refused at once on every instance.
import { MongoServerError, type Collection, type Db } from 'mongodb';
import * as Q from './accounts-queries.js';
import type { AccountDoc, AccountKeyDoc, OwnedScanDoc, SessionDoc, SignInTokenDoc } from './accounts-queries.js';
import type { ApiKeyDoc, ScanDoc } from './queries.js';
import { scanFields } from './docs.js';
import type {
  AccountKeyRecord,
  AccountKeyView,
  AccountRecord,
  AccountRepo,
  OwnedScan,
  OwnedScansQuery,
  SessionRecord,
  SignInTokenRecord,
  UnownedScan,
} from '../accounts-repo.js';
import type { MongoRunner } from './runner.js';

const toAccount = (d: AccountDoc): AccountRecord => ({ id: d._id, email: d.email, createdAt: d.createdAt });
const toToken = (d: SignInTokenDoc): SignInTokenRecord => ({
  tokenHash: d._id,
  email: d.email,
  returnTo: d.returnTo ?? null,
  createdAt: d.createdAt,
  expiresAt: d.expiresAt,
});
const toSession = (d: SessionDoc): SessionRecord => ({
  idHash: d._id,
  accountId: d.accountId,
  createdAt: d.createdAt,
  lastSeenAt: d.lastSeenAt,
  expiresAt: d.expiresAt,
  absoluteExpiresAt: d.absoluteExpiresAt,
});
const toAccountKey = (d: AccountKeyDoc): AccountKeyRecord => ({
  keyId: d._id,
  accountId: d.accountId,
  name: d.name,
  lastUsedAt: d.lastUsedAt ?? null,
});
const toOwned = (d: OwnedScanDoc): OwnedScan => {
  const { id, host, score, grade, createdAt, ownerKeyId } = scanFields(d);
  return { id, host, score, grade, createdAt, keyId: ownerKeyId, previousScore: d.previous[0]?.score ?? null };
};

export class MongoAccounts implements AccountRepo {
  private readonly accounts: Collection<AccountDoc>;
  private readonly tokens: Collection<SignInTokenDoc>;
  private readonly sessions: Collection<SessionDoc>;
  private readonly accountKeys: Collection<AccountKeyDoc>;
  private readonly scans: Collection<ScanDoc>;
  private readonly apiKeys: Collection<ApiKeyDoc>;

  constructor(
    db: Db,
    private readonly run: MongoRunner,
  ) {
    this.accounts = db.collection<AccountDoc>('accounts');
    this.tokens = db.collection<SignInTokenDoc>('sign_in_tokens');
    this.sessions = db.collection<SessionDoc>('sessions');
    this.accountKeys = db.collection<AccountKeyDoc>('account_keys');
    this.scans = db.collection<ScanDoc>('scans');
    this.apiKeys = db.collection<ApiKeyDoc>('api_keys');
  }

  async init(): Promise<void> {
    await Promise.all([
      this.accounts.createIndexes(Q.ACCOUNT_INDEXES.accounts),
      this.tokens.createIndexes(Q.ACCOUNT_INDEXES.sign_in_tokens),
      this.sessions.createIndexes(Q.ACCOUNT_INDEXES.sessions),
      this.accountKeys.createIndexes(Q.ACCOUNT_INDEXES.account_keys),
      this.scans.createIndexes(Q.ACCOUNT_INDEXES.scans),
    ]);
  }

  async ensureAccount(email: string, now: Date, newId: string): Promise<AccountRecord> {
    const upsert = () =>
      this.accounts.findOneAndUpdate(Q.accountByEmail(email), Q.accountInsert(newId, now), { upsert: true, returnDocument: 'after', ...this.run.opts() });
    let doc: AccountDoc | null;
    try {
      doc = await upsert();
    } catch (err) {
      // Two first sign-ins of one address at once: the unique email index lets one insert win; read it.
      if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
      doc = await this.accounts.findOne(Q.accountByEmail(email), this.run.opts());
    }
    if (!doc) throw new Error('MongoAccounts: account upsert returned nothing');
    return toAccount(doc);
  }

  async getAccount(id: string): Promise<AccountRecord | null> {
    const doc = await this.accounts.findOne(Q.byId<AccountDoc>(id), this.run.opts());
    return doc ? toAccount(doc) : null;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    const doc = await this.accounts.findOne(Q.accountByEmail(email), this.run.opts());
    return doc ? toAccount(doc) : null;
  }

  // One transaction where the deployment has them; on a standalone the steps run in the order that is safe if
  // one fails midway (keys stop working first, the account goes last so a retry finds it again).
  async deleteAccount(id: string, now: Date): Promise<void> {
    await this.run.tx(async (session) => {
      const o = this.run.opts(session);
      const account = await this.accounts.findOne(Q.byId<AccountDoc>(id), o);
      if (!account) return;
      const keyIds = (await this.accountKeys.find(Q.accountKeysOf(id), o).toArray()).map((k) => k._id);
      if (keyIds.length > 0) {
        await this.apiKeys.updateMany(Q.apiKeysByIds(keyIds) as never, [{ $set: { revokedAt: { $ifNull: ['$revokedAt', { $literal: now }] } } }], o);
      }
      await this.sessions.deleteMany(Q.sessionsOfAccount(id), o);
      await this.scans.updateMany(Q.scansOfOwner(id), Q.scanUnlink, o);
      await this.accountKeys.deleteMany(Q.accountKeysOf(id), o);
      await this.tokens.deleteMany(Q.tokensOfEmail(account.email), o);
      await this.accounts.deleteOne(Q.byId<AccountDoc>(id), o);
    });
  }

  async putSignInToken(rec: SignInTokenRecord): Promise<void> {
    await this.tokens.insertOne(Q.tokenToDoc(rec), this.run.opts());
  }

  async peekSignInToken(tokenHash: string, now: Date): Promise<SignInTokenRecord | null> {
    const doc = await this.tokens.findOne(Q.liveToken(tokenHash, now), this.run.opts());
    return doc ? toToken(doc) : null;
  }

  async consumeSignInToken(tokenHash: string, email: string, now: Date): Promise<SignInTokenRecord | null> {
    const doc = await this.tokens.findOneAndDelete(Q.consumableToken(tokenHash, email, now), this.run.opts());
    return doc ? toToken(doc) : null;
  }

  async putSession(rec: SessionRecord): Promise<void> {
    await this.sessions.insertOne(Q.sessionToDoc(rec), this.run.opts());
  }

  async findSession(idHash: string, now: Date): Promise<SessionRecord | null> {
    const doc = await this.sessions.findOne(Q.liveSession(idHash, now), this.run.opts());
    return doc ? toSession(doc) : null;
  }

  async touchSession(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.sessions.updateOne(Q.byId<SessionDoc>(idHash), Q.sessionTouch(lastSeenAt, expiresAt), this.run.opts());
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.sessions.deleteOne(Q.byId<SessionDoc>(idHash), this.run.opts());
  }

  async deleteAccountSessions(accountId: string): Promise<number> {
    return (await this.sessions.deleteMany(Q.sessionsOfAccount(accountId), this.run.opts())).deletedCount;
  }

  async pruneExpired(now: Date): Promise<void> {
    await Promise.all([this.tokens.deleteMany(Q.expired(now), this.run.opts()), this.sessions.deleteMany(Q.expired(now), this.run.opts())]);
  }

  async putAccountKey(rec: AccountKeyRecord): Promise<void> {
    await this.accountKeys.replaceOne(Q.byId<AccountKeyDoc>(rec.keyId), Q.accountKeyToDoc(rec), { upsert: true, ...this.run.opts() });
  }

  async accountKeyOf(keyId: string): Promise<AccountKeyRecord | null> {
    const doc = await this.accountKeys.findOne(Q.byId<AccountKeyDoc>(keyId), this.run.opts());
    return doc ? toAccountKey(doc) : null;
  }

  async listAccountKeys(accountId: string): Promise<AccountKeyView[]> {
    const links = await this.accountKeys.find(Q.accountKeysOf(accountId), this.run.opts()).toArray();
    const keys = await this.apiKeys.find(Q.apiKeysByIds(links.map((l) => l._id)) as never, this.run.opts()).toArray();
    const byId = new Map(keys.map((k) => [k.id, k]));
    return links
      .flatMap((l) => {
        const key = byId.get(l._id);
        return key ? [{ ...toAccountKey(l), createdAt: key.createdAt, revokedAt: key.revokedAt ?? null }] : [];
      })
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.keyId.localeCompare(b.keyId));
  }

  async markKeyUsed(keyId: string, at: Date): Promise<void> {
    await this.accountKeys.updateOne(Q.byId<AccountKeyDoc>(keyId), Q.keyUsed(at), this.run.opts());
  }

  async scansOfAccount(accountId: string, q: OwnedScansQuery): Promise<OwnedScan[]> {
    return (await this.scans.aggregate<OwnedScanDoc>(Q.ownedScansPipeline(accountId, q), this.run.opts()).toArray()).map(toOwned);
  }

  async scanCountsByKey(accountId: string, since: Date): Promise<Map<string | null, number>> {
    const rows = await this.scans.aggregate<{ _id: string | null; n: number }>(Q.scanCountsPipeline(accountId, since), this.run.opts()).toArray();
    return new Map(rows.map((r) => [r._id ?? null, r.n]));
  }

  async unownedScans(scanIds: number[]): Promise<UnownedScan[]> {
    const docs = await this.scans
      .find(Q.unownedScansByIds(scanIds), { projection: { host: 1, score: 1, grade: 1, createdAt: 1 }, sort: { _id: -1 }, ...this.run.opts() })
      .toArray();
    return docs.map((d) => ({ id: d._id, host: d.host, score: d.score, grade: d.grade, createdAt: d.createdAt }));
  }

  // One updateMany: the server checks the filter again as it writes each document, so a scan another account
  // took meanwhile is not taken over.
  async attachScansToAccount(accountId: string, scanIds: number[]): Promise<number> {
    return (await this.scans.updateMany(Q.unownedScansByIds(scanIds), Q.scanAttach(accountId), this.run.opts())).modifiedCount;
  }
}
