// The AccountRepo contract on a real MongoDB where MONGODB_URI points at one (a fresh database per case,
// dropped at the end); reported skipped otherwise.
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { MongoClient } from 'mongodb';
import { MongoRepo } from '../../store/mongo.js';
import { runAccountRepoContract } from './accounts-contract.js';

const uri = process.env.MONGODB_URI;
const dbNames: string[] = [];

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

runAccountRepoContract(
  'MongoRepo accounts',
  async () => {
    const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    dbNames.push(name);
    const repo = new MongoRepo(uri!, name);
    await repo.init();
    return repo;
  },
  { skip: !uri && 'MONGODB_URI not set' },
);
