// Every document MongoAccounts sends to the server, built by pure functions so their meaning is checked with
// mingo (test/db/mongo/accounts-queries.test.ts). Caller values sit under $eq/$in/$literal only.
import type { Document, Filter, IndexDescription, UpdateFilter } from 'mongodb';
import type { AccountKeyRecord, OwnedScansQuery, SessionRecord, SignInTokenRecord } from '../accounts-repo.js';
import type { ScanDoc } from './queries.js';

export interface AccountDoc {
  _id: string; // account id
  email: string;
  createdAt: Date;
}

export interface SignInTokenDoc {
  _id: string; // token hash
  email: string;
  returnTo: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface SessionDoc {
  _id: string; // session id hash
  accountId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export interface AccountKeyDoc {
  _id: string; // key id
  accountId: string;
  name: string;
  lastUsedAt: Date | null;
}

/** A scan row of the console's page: the scan without its report, plus the previous score of its host. */
export type OwnedScanDoc = Omit<ScanDoc, 'report'> & { previous: { score: number }[] };

// TTL indexes remove expired tokens and sessions on the server (within a minute or so); reads filter on
// expiresAt as well, so an expired row that is still there never counts.
export const ACCOUNT_INDEXES: Record<'accounts' | 'sign_in_tokens' | 'sessions' | 'account_keys' | 'scans', IndexDescription[]> = {
  accounts: [{ key: { email: 1 }, name: 'email', unique: true }],
  sign_in_tokens: [{ key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 }],
  sessions: [
    { key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 },
    { key: { accountId: 1 }, name: 'account' },
  ],
  account_keys: [{ key: { accountId: 1 }, name: 'account' }],
  scans: [
    { key: { ownerAccountId: 1, _id: -1 }, name: 'owner_id', partialFilterExpression: { ownerAccountId: { $type: 'string' } } },
    {
      key: { ownerAccountId: 1, host: 1, _id: -1 },
      name: 'owner_host_id',
      partialFilterExpression: { ownerAccountId: { $type: 'string' } },
    },
    { key: { host: 1, _id: -1 }, name: 'host_id' },
  ],
};

export const byId = <T extends { _id: string }>(id: string): Filter<T> => ({ _id: { $eq: id } }) as Filter<T>;

export function accountByEmail(email: string): Filter<AccountDoc> {
  return { email: { $eq: email } };
}

/** Upsert on the unique email: the first writer's id and instant stay. */
export function accountInsert(newId: string, now: Date): UpdateFilter<AccountDoc> {
  return { $setOnInsert: { _id: newId, createdAt: now } };
}

export function tokenToDoc(rec: SignInTokenRecord): SignInTokenDoc {
  return { _id: rec.tokenHash, email: rec.email, returnTo: rec.returnTo, createdAt: rec.createdAt, expiresAt: rec.expiresAt };
}

export function liveToken(tokenHash: string, now: Date): Filter<SignInTokenDoc> {
  return { _id: { $eq: tokenHash }, expiresAt: { $gt: now } };
}

export function consumableToken(tokenHash: string, email: string, now: Date): Filter<SignInTokenDoc> {
  return { _id: { $eq: tokenHash }, email: { $eq: email }, expiresAt: { $gt: now } };
}

export function tokensOfEmail(email: string): Filter<SignInTokenDoc> {
  return { email: { $eq: email } };
}

export function sessionToDoc(rec: SessionRecord): SessionDoc {
  return {
    _id: rec.idHash,
    accountId: rec.accountId,
    createdAt: rec.createdAt,
    lastSeenAt: rec.lastSeenAt,
    expiresAt: rec.expiresAt,
    absoluteExpiresAt: rec.absoluteExpiresAt,
  };
}

export function liveSession(idHash: string, now: Date): Filter<SessionDoc> {
  return { _id: { $eq: idHash }, expiresAt: { $gt: now } };
}

export function sessionTouch(lastSeenAt: Date, expiresAt: Date): UpdateFilter<SessionDoc> {
  return { $set: { lastSeenAt, expiresAt } };
}

export function sessionsOfAccount(accountId: string): Filter<SessionDoc> {
  return { accountId: { $eq: accountId } };
}

export function expired<T extends { expiresAt: Date }>(now: Date): Filter<T> {
  return { expiresAt: { $lte: now } } as Filter<T>;
}

export function accountKeyToDoc(rec: AccountKeyRecord): AccountKeyDoc {
  return { _id: rec.keyId, accountId: rec.accountId, name: rec.name, lastUsedAt: rec.lastUsedAt };
}

export function accountKeysOf(accountId: string): Filter<AccountKeyDoc> {
  return { accountId: { $eq: accountId } };
}

export function keyUsed(at: Date): UpdateFilter<AccountKeyDoc> {
  return { $set: { lastUsedAt: at } };
}

/** The api_keys documents of these key ids, for revoking an account's keys in one update. */
export function apiKeysByIds(ids: string[]): Filter<{ id: string }> {
  return { id: { $in: ids.filter((id) => typeof id === 'string') } };
}

export function scansOfOwner(accountId: string): Filter<ScanDoc> {
  return { ownerAccountId: { $eq: accountId } };
}

/** These scans, while no account and no key holds them (an absent or null field matches null). */
export function unownedScansByIds(ids: number[]): Filter<ScanDoc> {
  const filter: Document = { _id: { $in: ids.filter((id) => Number.isSafeInteger(id) && id > 0) }, ownerAccountId: { $eq: null }, ownerKeyId: { $eq: null } };
  return filter as Filter<ScanDoc>;
}

/** The account link a scan made before signing in gets, as a signed-in scan has it from the start. */
export function scanAttach(accountId: string): UpdateFilter<ScanDoc> {
  return { $set: { ownerAccountId: accountId } };
}

/** The account link leaves the scan; the scan itself stays public. */
export const scanUnlink: UpdateFilter<ScanDoc> = { $unset: { ownerAccountId: '' }, $set: { ownerKeyId: null } };

/**
 * The scans page in one aggregate on owner_id (or owner_host_id): the page's scans newest first, each with the
 * score of its host's scan just before it, found by a seek on host_id.
 */
export function ownedScansPipeline(accountId: string, q: OwnedScansQuery): Document[] {
  const match: Document = { ownerAccountId: { $eq: accountId } };
  if (q.host !== undefined) match.host = { $eq: q.host };
  if (q.beforeId !== undefined) match._id = { $lt: q.beforeId };
  return [
    { $match: match },
    { $sort: { _id: -1 } },
    { $limit: Math.max(0, Math.floor(q.limit)) },
    { $project: { host: 1, vertical: 1, score: 1, grade: 1, capped: 1, agentReady: 1, createdAt: 1, ownerKeyId: 1 } },
    {
      $lookup: {
        from: 'scans',
        let: { h: '$host', id: '$_id' },
        pipeline: [
          { $match: { $expr: { $and: [{ $eq: ['$host', '$$h'] }, { $lt: ['$_id', '$$id'] }] } } },
          { $sort: { _id: -1 } },
          { $limit: 1 },
          { $project: { _id: 0, score: 1 } },
        ],
        as: 'previous',
      },
    },
  ];
}

export function scanCountsPipeline(accountId: string, since: Date): Document[] {
  return [
    { $match: { ownerAccountId: { $eq: accountId }, createdAt: { $gte: since } } },
    { $group: { _id: '$ownerKeyId', n: { $sum: 1 } } },
  ];
}
