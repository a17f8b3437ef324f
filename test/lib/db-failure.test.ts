// The store-unavailable → 503 mapping, checked with the database drivers' own error classes (constructed the way
// the driver does), so it runs without a MongoDB server: a store that is down, failing over, closed, busy, timed
// out or full answers 503 with Retry-After; a duplicate key, a bad value or a bug stays a 500.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  MongoClientClosedError,
  MongoError,
  MongoInvalidArgumentError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoParseError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import { toAppError } from '../../lib/http-errors.js';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../../lib/db-failure.js';

// The pool's errors are not exported from the package root (nor typed there); these are the classes the driver throws.
type ErrorClass<A extends unknown[]> = new (...args: A) => Error;
const { PoolClearedError, PoolClearedOnNetworkError, PoolClosedError, WaitQueueTimeoutError } = createRequire(import.meta.url)(
  'mongodb/lib/cmap/errors.js',
) as {
  PoolClearedError: ErrorClass<[unknown]>;
  PoolClearedOnNetworkError: ErrorClass<[unknown]>;
  PoolClosedError: ErrorClass<[unknown]>;
  WaitQueueTimeoutError: ErrorClass<[string, string]>;
};
const pool = { address: 'db.example:27017', serverError: new MongoNetworkError('connection reset') } as never;

function assert503(err: unknown, label: string): void {
  assert.equal(isDatabaseUnavailable(err), true, `${label} is a store failure`);
  const app = toAppError(err);
  assert.equal(app?.status, 503, `${label} → 503`);
  assert.equal(app?.code, 'SERVICE_UNAVAILABLE');
  assert.equal(app?.headers?.['Retry-After'], '5');
}

function assertNot503(err: unknown, label: string): void {
  assert.equal(isDatabaseUnavailable(err), false, `${label} is not a store failure`);
  assert.notEqual(toAppError(err)?.status, 503, label);
}

describe('store failures map to 503', () => {
  it('MongoDB driver classes of a store that is down, closed or timed out', () => {
    assert503(new MongoNetworkError('socket closed'), 'MongoNetworkError');
    assert503(new MongoNetworkTimeoutError('timed out'), 'MongoNetworkTimeoutError');
    assert503(new MongoServerSelectionError('no primary', { error: undefined } as never), 'MongoServerSelectionError');
    assert503(new MongoNotConnectedError('not connected'), 'MongoNotConnectedError');
    assert503(new MongoTopologyClosedError(), 'MongoTopologyClosedError');
    assert503(new MongoServerClosedError(), 'MongoServerClosedError');
    assert503(new MongoClientClosedError(), 'MongoClientClosedError');
    assert503(new MongoOperationTimeoutError('timed out'), 'MongoOperationTimeoutError');
    assert503(new PoolClearedError(pool), 'PoolClearedError');
    assert503(new PoolClearedOnNetworkError(pool), 'PoolClearedOnNetworkError');
    assert503(new PoolClosedError(pool), 'PoolClosedError');
    assert503(new WaitQueueTimeoutError('timed out waiting for a connection', 'db.example:27017'), 'WaitQueueTimeoutError');
  });

  it('a write concern error, whatever its code', () => {
    assert503(
      new MongoWriteConcernError({ writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' }, ok: 1 }),
      'MongoWriteConcernError 64',
    );
    assert503(new MongoWriteConcernError({ writeConcernError: { code: 79, errmsg: 'unknown mode' }, ok: 1 }), 'MongoWriteConcernError 79');
  });

  it('server errors with failover, shutdown, time-limit and disk-full codes, after the driver gave up retrying', () => {
    for (const [code, codeName] of [
      [10107, 'NotWritablePrimary'],
      [11602, 'InterruptedDueToReplStateChange'],
      [189, 'PrimarySteppedDown'],
      [91, 'ShutdownInProgress'],
      [11600, 'InterruptedAtShutdown'],
      [13435, 'NotPrimaryNoSecondaryOk'],
      [50, 'MaxTimeMSExpired'],
      [262, 'ExceededTimeLimit'],
      [14031, 'OutOfDiskSpace'],
      [112, 'WriteConflict'],
    ] as const) {
      assert503(new MongoServerError({ ok: 0, code, codeName, errmsg: codeName }), `${codeName} (${code})`);
    }
    // A bulk write answered with a write concern error in its body.
    assert503(new MongoServerError({ ok: 1, code: 11000, writeConcernError: { code: 91, errmsg: 'shutting down' } }), 'writeConcernError 91');
  });

  it('any error the driver or server labels as one to retry', () => {
    for (const label of ['TransientTransactionError', 'UnknownTransactionCommitResult', 'RetryableWriteError', 'SystemOverloadedError']) {
      assert503(new MongoServerError({ ok: 0, code: 251, codeName: 'NoSuchTransaction', errmsg: 'x', errorLabels: [label] }), label);
    }
  });

  it('SQLite answers of a locked, read-only or full store, and a closed adapter', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN']) {
      assert503(new Database.SqliteError('store failure', code), code);
    }
    assert503(new DatabaseUnavailableError('the store is closed'), 'DatabaseUnavailableError');
  });

  it('bugs and bad data stay 500', () => {
    assertNot503(new MongoServerError({ ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000 duplicate key' }), 'duplicate key');
    assertNot503(new MongoServerError({ ok: 0, code: 2, codeName: 'BadValue', errmsg: 'bad value' }), 'BadValue');
    assertNot503(new MongoServerError({ ok: 0, code: 121, codeName: 'DocumentValidationFailure', errmsg: 'invalid' }), 'validation');
    assertNot503(new MongoInvalidArgumentError('bad argument'), 'MongoInvalidArgumentError');
    assertNot503(new MongoParseError('bad uri'), 'MongoParseError');
    assertNot503(new MongoError('something else'), 'a plain MongoError');
    assertNot503(new Database.SqliteError('constraint', 'SQLITE_CONSTRAINT_PRIMARYKEY'), 'SQLITE_CONSTRAINT');
    assertNot503(new TypeError('x is undefined'), 'TypeError');
    assertNot503({ name: 'MongoNetworkError', code: 'ECONNRESET' }, 'a look-alike object is not the driver class');
    assertNot503(null, 'null');
    assert.equal(toAppError(new TypeError('x')), null);
  });
});
