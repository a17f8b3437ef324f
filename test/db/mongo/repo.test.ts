// Runs the Repository, monitoring and account contracts against a real MongoDB when MONGODB_URI points at one; each case gets its own
// database test_<pid>_<rand>, dropped at the end. Without MONGODB_URI the suite reports itself skipped.
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { MongoClient } from 'mongodb';
import { MongoRepo } from '../../../db/mongo/repo.js';
import { runRepositoryContract } from '../contract.js';
import type { Repository } from '../../../db/repo.js';
import { runMonitoringContract } from '../monitoring-contract.js';
import { runAccountRepoContract } from '../accounts-contract.js';
import { runQueueContract } from '../queue-contract.js';
import { runSigningKeysContract } from '../signing-keys-contract.js';

const uri = process.env.MONGODB_URI;
const dbNames: string[] = [];
const dbOf = new WeakMap<object, string>();

/** A repository on a database of its own, dropped when the file's tests end. */
function openFresh(): Promise<MongoRepo> {
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  dbNames.push(name);
  return open(name);
}

async function open(name: string): Promise<MongoRepo> {
  const repo = new MongoRepo(uri!, name);
  await repo.init();
  dbOf.set(repo, name);
  return repo;
}

if (uri) {
  after(async () => {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 2500 });
    try {
      for (const name of dbNames) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });
}

/**
 * Every write to the readiness probe's collection fails validation (DocumentValidationFailure): the server refuses
 * it as it would without a primary or with a read-only user, while reads and ping still answer.
 */
async function refuseWrites(repo: Repository): Promise<() => Promise<void>> {
  const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 2500 });
  const db = client.db(dbOf.get(repo)!);
  await db.command({ collMod: 'health_probe', validator: { _id: { $exists: false } } });
  return async () => {
    try {
      await db.command({ collMod: 'health_probe', validator: {} });
    } finally {
      await client.close();
    }
  };
}

runRepositoryContract(
  'MongoRepo',
  openFresh,
  // A second client on the same database stands for a second service instance.
  { skip: !uri && 'MONGODB_URI not set', sibling: (repo) => open(dbOf.get(repo)!), refuseWrites },
);

runMonitoringContract(
  'MongoRepo',
  openFresh,
  { skip: !uri && 'MONGODB_URI not set', twinOf: (repo) => open(dbOf.get(repo)!) },
);

runAccountRepoContract('MongoRepo accounts', openFresh, { skip: !uri && 'MONGODB_URI not set' });

runQueueContract('MongoRepo', openFresh, { skip: !uri && 'MONGODB_URI not set', twinOf: (repo) => open(dbOf.get(repo)!) });
runSigningKeysContract('MongoRepo signing keys', openFresh, { skip: !uri && 'MONGODB_URI not set' });
