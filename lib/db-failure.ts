// Which errors mean "the store is unavailable right now": the caller gets 503 + Retry-After and may retry, as
// opposed to a bug (500). Decided by the error's class first, then the driver's error labels, then codes.
import {
  MongoClientClosedError,
  MongoDriverError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';

/** Thrown by an adapter for a store it knows it cannot use now (closed, not reachable). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

// Down, closed, busy, timed out or out of space. MongoNetworkError covers its subclasses: timeouts and
// pool clears (PoolClearedError, PoolClearedOnNetworkError).
const MONGO_UNAVAILABLE_CLASSES = [
  MongoNetworkError,
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoServerClosedError,
  MongoClientClosedError,
  MongoOperationTimeoutError,
  MongoStalePrimaryError,
  MongoWriteConcernError, // the write was not acknowledged as asked: its outcome is unknown, a retry is safe
];

// Driver errors the package does not export by class.
const MONGO_UNAVAILABLE_NAMES = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);

// The labels with which the driver or the server say "try again".
const MONGO_RETRY_LABELS: string[] = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.UnknownTransactionCommitResult,
  MongoErrorLabel.ResetPool,
  MongoErrorLabel.PoolRequestedRetry,
  MongoErrorLabel.InterruptInUseConnections,
  MongoErrorLabel.RetryableError,
  MongoErrorLabel.SystemOverloadedError,
];

// Server codes of failover, shutdown, time limits, lock waits and a full disk (the names are the server's).
export const MONGO_UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  24, // LockTimeout
  50, // MaxTimeMSExpired
  64, // WriteConcernTimeout (WriteConcernFailed before 8.1)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  112, // WriteConflict
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  202, // NetworkInterfaceExceededTimeLimit
  262, // ExceededTimeLimit
  9001, // SocketException
  10058, // LegacyNotPrimary
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
  14031, // OutOfDiskSpace
]);

// SQLite's answers for a store that is locked, read-only, full, unreadable or gone.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|READONLY|FULL|IOERR|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/;

function mongoUnavailable(err: MongoError): boolean {
  if (MONGO_UNAVAILABLE_CLASSES.some((cls) => err instanceof cls)) return true;
  if (err instanceof MongoDriverError && MONGO_UNAVAILABLE_NAMES.has(err.name)) return true;
  if (MONGO_RETRY_LABELS.some((label) => err.hasErrorLabel(label))) return true;
  if (err instanceof MongoServerError) {
    const codes = [err.code, (err.writeConcernError as { code?: unknown } | undefined)?.code].map(Number);
    return codes.some((code) => MONGO_UNAVAILABLE_CODES.has(code));
  }
  return false;
}

/** The database is down, closed, read-only, full or busy: a 503 the caller may retry, not a 500. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (err instanceof MongoError) return mongoUnavailable(err);
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SQLITE_UNAVAILABLE.test(code);
}
