// The MongoDB adapter's readiness probe (MongoRepo.ping, what /readyz calls) proves the database takes a write, as
// SQLite's does: it upserts the probe document with a majority acknowledgement, so a deployment that answers but
// refuses writes is not ready, and it gives up after READY_TIMEOUT_MS on one that does not answer, sharing a
// probe in flight rather than stacking them. Driven by the real driver against a loopback server speaking the
// wire protocol (test/support/mongo-wire.ts); the contract suite runs the refusal on a real MongoDB.
import '../../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { MongoClient, type Document } from 'mongodb';
import { MongoRepo, READY_TIMEOUT_MS } from '../../../db/mongo/repo.js';
import { DatabaseUnavailableError } from '../../../lib/db-failure.js';
import { emptyDatabase, startMongoWire, type WireAnswer } from '../../support/mongo-wire.js';
import { startApp } from '../../helpers/start-app.js';

const NOT_PRIMARY = { ok: 0, code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' };
const NO_MAJORITY = {
  lastErrorObject: { n: 1, updatedExisting: true },
  value: null,
  writeConcernError: { code: 64, codeName: 'WriteConcernTimeout', errmsg: 'waiting for replication timed out' },
  ok: 1,
};

const probes = (commands: Document[]) => commands.filter((c) => 'findAndModify' in c);

test('the probe upserts one document with a majority acknowledgement, and answers when the write is taken', async (t) => {
  const wire = await startMongoWire();
  const repo = new MongoRepo(wire.uri, 'ready_test');
  t.after(async () => {
    await repo.close();
    await wire.close();
  });
  await repo.ping();
  await repo.ping();
  const sent = probes(wire.commands);
  assert.equal(sent.length, 2, 'one write per probe');
  assert.equal(sent[0].findAndModify, 'health_probe');
  assert.deepEqual(sent[0].query, { _id: { $eq: 'readiness' } });
  assert.equal(sent[0].upsert, true);
  assert.ok(sent[0].update.$set.at instanceof Date);
  assert.equal(sent[0].writeConcern.w, 'majority');
  assert.ok(sent[0].maxTimeMS <= READY_TIMEOUT_MS);
});

for (const [label, refusal, check] of [
  ['no primary (NotWritablePrimary)', NOT_PRIMARY, (err: Error & { code?: number }) => err.code === 10107],
  ['no majority (WriteConcernTimeout)', NO_MAJORITY, (err: Error & { code?: number }) => err.code === 64],
] as const) {
  test(`a database that answers ping but refuses writes is not ready: ${label}`, async (t) => {
    const wire = await startMongoWire((command): WireAnswer => ('findAndModify' in command ? refusal : emptyDatabase(command)));
    const repo = new MongoRepo(wire.uri, 'ready_test');
    t.after(async () => {
      await repo.close();
      await wire.close();
    });
    // The deployment is up: a plain ping, all the probe used to send, succeeds.
    const client = new MongoClient(wire.uri);
    await client.db('ready_test').command({ ping: 1 });
    await client.close();
    await assert.rejects(repo.ping(), check);
    assert.ok(probes(wire.commands).length >= 1);
  });
}

test('a database that never answers the write: the probe gives up after READY_TIMEOUT_MS, and calls meanwhile share it', async (t) => {
  let silent = true;
  const wire = await startMongoWire((command) => ('findAndModify' in command && silent ? 'silent' : emptyDatabase(command)));
  const repo = new MongoRepo(wire.uri, 'ready_test');
  t.after(async () => {
    await repo.close();
    await wire.close();
  });
  const started = performance.now();
  const outcomes = await Promise.allSettled([repo.ping(), repo.ping(), repo.ping()]);
  const waited = performance.now() - started;
  for (const outcome of outcomes) {
    assert.equal(outcome.status, 'rejected');
    assert.ok(outcome.reason instanceof DatabaseUnavailableError, String(outcome.reason));
    assert.match(outcome.reason.message, new RegExp(`no answer within ${READY_TIMEOUT_MS} ms`));
  }
  assert.ok(waited >= READY_TIMEOUT_MS - 50, `gave up after ${Math.round(waited)} ms`);
  assert.ok(waited < 10 * READY_TIMEOUT_MS, `gave up after ${Math.round(waited)} ms, not near the ${READY_TIMEOUT_MS} ms bound`);
  assert.equal(probes(wire.commands).length, 1, 'three calls, one write in flight');
  silent = false;
  // The write past its bound is left to the driver; the next call starts a probe of its own, which succeeds.
  await repo.ping();
});

test('/readyz with MongoDB: 503 while the database refuses writes, 200 again once it takes them; /healthz 200 throughout', async (t) => {
  let refuse = false;
  const wire = await startMongoWire((command): WireAnswer => ('findAndModify' in command && refuse ? NOT_PRIMARY : emptyDatabase(command)));
  t.after(() => wire.close());
  const app = await startApp(t, {}, { db: new MongoRepo(wire.uri, 'ready_test') });
  const status = async (path: string) => (await fetch(`${app.url}${path}`)).status;
  // The scanner is not started by startApp, so the only reason for 503 here is the store.
  assert.equal(await status('/readyz'), 200);
  refuse = true;
  assert.equal(await status('/readyz'), 503);
  assert.equal(await status('/healthz'), 200);
  refuse = false;
  assert.equal(await status('/readyz'), 200);
});
