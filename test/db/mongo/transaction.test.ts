// The transaction helper of the MongoDB adapter (db/mongo/repo.ts), driven through a session stand-in that records
// what the helper asks of it, with the driver's own error classes: transient errors are retried a bounded number
// of times, anything else aborts once and is thrown, and a standalone runs the writes once without a session.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MongoClient, MongoServerError } from 'mongodb';
import { withTransaction } from '../../../db/mongo/repo.js';

function sessionLog() {
  const calls: string[] = [];
  let open = false;
  const session = {
    startTransaction: () => {
      calls.push('start');
      open = true;
    },
    commitTransaction: async () => {
      calls.push('commit');
      open = false;
    },
    abortTransaction: async () => {
      calls.push('abort');
      open = false;
    },
    inTransaction: () => open,
    endSession: async () => {
      calls.push('end');
    },
  };
  const client = { startSession: () => session } as unknown as MongoClient;
  return { calls, client, session };
}

const writeConflict = () =>
  new MongoServerError({ ok: 0, code: 112, codeName: 'WriteConflict', errmsg: 'write conflict', errorLabels: ['TransientTransactionError'] });

describe('withTransaction', () => {
  it('commits what fn returns', async () => {
    const { calls, client, session } = sessionLog();
    const seen: unknown[] = [];
    assert.equal(await withTransaction(client, true, async (s) => (seen.push(s), 42)), 42);
    assert.deepEqual(seen, [session]);
    assert.deepEqual(calls, ['start', 'commit', 'end']);
  });

  it('retries fn after a transient error (a write conflict with another instance), then commits', async () => {
    const { calls, client } = sessionLog();
    let runs = 0;
    const out = await withTransaction(client, true, async () => {
      if (++runs < 3) throw writeConflict();
      return 'done';
    });
    assert.equal(out, 'done');
    assert.equal(runs, 3);
    assert.deepEqual(calls, ['start', 'abort', 'start', 'abort', 'start', 'commit', 'end']);
  });

  it('gives up after a bounded number of attempts and throws the transient error (a 503)', async () => {
    const { calls, client } = sessionLog();
    let runs = 0;
    await assert.rejects(
      withTransaction(client, true, async () => {
        runs++;
        throw writeConflict();
      }),
      (err: unknown) => err instanceof MongoServerError && err.code === 112,
    );
    assert.equal(runs, 8);
    assert.equal(calls.filter((c) => c === 'abort').length, 8);
    assert.equal(calls.at(-1), 'end');
  });

  it('aborts once and throws any other error, without a retry', async () => {
    const { calls, client } = sessionLog();
    let runs = 0;
    const duplicate = new MongoServerError({ ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000' });
    await assert.rejects(
      withTransaction(client, true, async () => {
        runs++;
        throw duplicate;
      }),
      (err: unknown) => err === duplicate,
    );
    assert.equal(runs, 1);
    assert.deepEqual(calls, ['start', 'abort', 'end']);
  });

  it('on a standalone runs fn once with no session and starts nothing', async () => {
    const { calls, client } = sessionLog();
    const seen: unknown[] = [];
    assert.equal(await withTransaction(client, false, async (s) => (seen.push(s), 'plain')), 'plain');
    assert.deepEqual(seen, [undefined]);
    assert.deepEqual(calls, []);
  });
});
