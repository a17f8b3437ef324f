// What MongoRepo hands the account and monitoring parts of the MongoDB adapter: its transaction runner (one
// transaction on a replica set, the plain sequence on a standalone) and its per-operation options (the session,
// or a server-side time limit). Rules in db/mongo/repo.ts.
import type { ClientSession } from 'mongodb';

export interface MongoRunner {
  tx<T>(fn: (session: ClientSession | undefined) => Promise<T>): Promise<T>;
  opts(session?: ClientSession): { session?: ClientSession; maxTimeMS?: number };
}
