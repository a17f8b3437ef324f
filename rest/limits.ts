// Pro-key authentication and rate limits (docs/decisions.md "Limits and keys"; docs/security.md K1, L1–L3). Counters
// live in the store, so several instances share them; every response carries the IETF RateLimit headers (draft-8).
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type ClientRateLimitInfo, type Store } from 'express-rate-limit';
import type { Config } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import { quotaIdOf, resolveProIdentity } from '../accounts/identity.js';
import { QUOTA_WINDOW_SECONDS, rollingQuota, type QuotaHolder, type RollingQuota } from '../accounts/quota.js';
import { sessionCarriesPro, sessionTokenOf } from './session-pro.js';
import { periodOf, type Repository } from '../db/repo.js';
import type { Caller } from '../tools/tool.js';
import type { Guards, ProUsage } from '../http/guards.js';

export type { Guards, ProUsage };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);
const REALM = 'Bearer realm="store-readiness"';


/** express-rate-limit's draft-8 partition key: the first 12 hex digits of the key's SHA-256, in base64. */
const partitionKeyOf = (key: string): string => Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

/** Like express-rate-limit, the seconds left in a window are counted on the wall clock. */
const secondsUntil = (resetTime: Date | undefined, windowMs: number): number =>
  resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : Math.ceil(windowMs / 1000);

/** express-rate-limit's Store over Repository usage counters, with fixed windows. */
export class RepoLimiterStore implements Store {
  readonly localKeys = false;
  private lastPrune = 0;

  constructor(
    protected readonly repo: Repository,
    readonly prefix: string,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  protected windowEnd(): number {
    return (Math.floor(this.now() / this.windowMs) + 1) * this.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const end = this.windowEnd();
    const totalHits = await this.repo.incrementUsage(this.prefix + key, periodOf(end));
    this.pruneNowAndThen();
    return { totalHits, resetTime: new Date(end) };
  }

  async get(key: string): Promise<ClientRateLimitInfo> {
    const end = this.windowEnd();
    return { totalHits: await this.repo.getUsage(this.prefix + key, periodOf(end)), resetTime: new Date(end) };
  }

  async decrement(key: string): Promise<void> {
    await this.repo.incrementUsage(this.prefix + key, periodOf(this.windowEnd()), -1);
  }

  async resetKey(key: string): Promise<void> {
    const used = (await this.get(key)).totalHits;
    if (used) await this.repo.incrementUsage(this.prefix + key, periodOf(this.windowEnd()), -used);
  }

  private pruneNowAndThen(): void {
    const now = this.now();
    if (now - this.lastPrune < MINUTE) return;
    this.lastPrune = now;
    this.repo.pruneUsage(periodOf(now)).catch(() => undefined); // housekeeping only; a failure costs nothing
  }
}

const FLUSH_MS = 200;

/**
 * The read limiter's counters: kept in memory and added to the shared store in one write per caller every
 * FLUSH_MS, so a read costs no database write. Exact within an instance, shared with other instances within
 * FLUSH_MS, and still limiting (locally) while the store is down.
 */
export class BatchedLimiterStore extends RepoLimiterStore {
  private readonly counts = new Map<string, { period: string; shared: number; pending: number }>();
  private timer: NodeJS.Timeout | null = null;
  private backoffMs = 0; // grows while the store refuses writes, so a locked store is not hammered

  private window = { end: 0, period: '' };

  /** The current window's end and period string, made once per window rather than on every request. */
  private current(): { end: number; period: string } {
    const end = this.windowEnd();
    if (end !== this.window.end) this.window = { end, period: periodOf(end) };
    return this.window;
  }

  private entry(key: string): { period: string; shared: number; pending: number } {
    const { period } = this.current();
    let count = this.counts.get(key);
    if (!count || count.period !== period) {
      count = { period, shared: 0, pending: 0 };
      this.counts.set(key, count);
    }
    return count;
  }

  /** increment, synchronously: the counters are in memory. The hits so far in the window (windowEndMs says when it ends). */
  hit(key: string): number {
    const count = this.entry(key);
    count.pending++;
    this.scheduleFlush();
    return count.shared + count.pending;
  }

  /** When the current window ends, in ms since the epoch. */
  windowEndMs(): number {
    return this.current().end;
  }

  override async increment(key: string): Promise<ClientRateLimitInfo> {
    return { totalHits: this.hit(key), resetTime: new Date(this.current().end) };
  }

  override async get(key: string): Promise<ClientRateLimitInfo> {
    const count = this.entry(key);
    return { totalHits: count.shared + count.pending, resetTime: new Date(this.windowEnd()) };
  }

  override async decrement(key: string): Promise<void> {
    this.entry(key).pending--;
    this.scheduleFlush();
  }

  override async resetKey(key: string): Promise<void> {
    this.counts.delete(key);
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, FLUSH_MS + this.backoffMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    const current = periodOf(this.windowEnd());
    for (const [key, count] of this.counts) {
      if (count.period < current) {
        this.counts.delete(key); // a finished window: nothing left to limit
        continue;
      }
      if (count.pending === 0) continue;
      const sent = count.pending;
      count.pending = 0;
      try {
        // The shared total already includes what was just sent; hits counted meanwhile stay pending.
        count.shared = await this.repo.incrementUsage(this.prefix + key, count.period, sent);
        this.backoffMs = 0;
      } catch {
        count.pending += sent; // the store is down: keep counting here, send later
        this.backoffMs = Math.min(Math.max(1000, this.backoffMs * 2), 10_000);
        this.scheduleFlush();
        return;
      }
    }
  }
}

/**
 * The read limiter, which runs on every request: express-rate-limit's fixed-window middleware as configured in
 * createGuards (draft-8 headers, the caller key, our 429 handler, nothing skipped), with the same answers and
 * headers, but synchronous over the in-memory batched counters and hashing a caller's partition key once rather
 * than on every request. The scan limiter, on the rare scan route, stays express-rate-limit itself.
 */
function readLimiter(opts: {
  name: string;
  windowMs: number;
  store: BatchedLimiterStore;
  key: (req: Request, res: Response) => string;
  limit: (res: Response) => number;
  handler: RequestHandler;
}): RequestHandler {
  const { name, windowMs, store } = opts;
  const windowSeconds = Math.ceil(windowMs / 1000);
  const partitionKeys = new Map<string, string>();
  const partitionKey = (key: string): string => {
    let pk = partitionKeys.get(key);
    if (pk === undefined) {
      if (partitionKeys.size >= 10_000) partitionKeys.clear();
      pk = partitionKeyOf(key);
      partitionKeys.set(key, pk);
    }
    return pk;
  };
  // Runs on every request, so it makes no Date and no info object unless it refuses (express-rate-limit's
  // req.rateLimit, which the refusal handler reads).
  return (req, res, next) => {
    const key = opts.key(req, res);
    let hits: number;
    try {
      hits = store.hit(key);
    } catch (err) {
      return next(err);
    }
    const limit = opts.limit(res);
    const end = store.windowEndMs();
    const resetSeconds = Math.max(0, Math.ceil((end - Date.now()) / 1000)); // on the wall clock, as secondsUntil
    if (!res.headersSent) {
      res.appendHeader('RateLimit', `"${name}"; r=${Math.max(limit - hits, 0)}; t=${resetSeconds}`);
      res.appendHeader('RateLimit-Policy', `"${name}"; q=${limit}; w=${windowSeconds}; pk=:${partitionKey(key)}:`);
    }
    if (hits > limit) {
      const info = { limit, used: hits, remaining: 0, resetTime: new Date(end), key };
      (req as Request & { rateLimit: typeof info }).rateLimit = info;
      if (!res.headersSent) res.setHeader('Retry-After', String(resetSeconds));
      return void opts.handler(req, res, next);
    }
    next();
  };
}

export interface GuardOptions {
  config: Config;
  db: Repository;
  now?: () => number; // injected clock for tests of long windows
}

export function createGuards({ config, db, now = Date.now }: GuardOptions): Guards {
  const callerOf = (res: Response): Caller => res.locals.caller;
  // The caller's ip is req.ip, read once by identify (each read of req.ip parses the forwarding headers again).
  const callerKey = (_req: Request, res: Response): string => {
    const caller = callerOf(res);
    if (caller.kind === 'pro') return quotaIdOf({ accountId: caller.accountId ?? null, keyId: caller.keyId });
    // An IPv4 address is its own key; only an IPv6 one (it has a colon) is cut to its /56 by ipKeyGenerator.
    return `ip:${caller.ip.includes(':') ? ipKeyGenerator(caller.ip, 56) : caller.ip}`;
  };

  const limitedHandler = (windowMs: number, limit: (res: Response) => number, what: string): RequestHandler =>
    (req, res, next) => {
      const info = (req as Request & { rateLimit: { resetTime?: Date } }).rateLimit;
      const retryAfter = Math.max(1, Math.ceil(((info.resetTime?.getTime() ?? now() + windowMs) - now()) / 1000));
      next(rateLimited(`${what} of ${limit(res)} reached`, retryAfter));
    };

  const limiter = (name: string, windowMs: number, limitStore: Store, limit: (res: Response) => number, what: string) =>
    rateLimit({
      windowMs,
      limit: (_req, res) => limit(res),
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: name,
      keyGenerator: callerKey,
      store: limitStore,
      validate: { trustProxy: false, xForwardedForHeader: false },
      handler: limitedHandler(windowMs, limit, what),
    });

  const readLimit = (res: Response) => (callerOf(res).kind === 'pro' ? config.PRO_READS_PER_MINUTE : config.ANON_READS_PER_MINUTE);
  const readStore = new BatchedLimiterStore(db, 'read:', MINUTE, now);
  const reads = readLimiter({
    name: 'read',
    windowMs: MINUTE,
    store: readStore,
    key: callerKey,
    limit: readLimit,
    handler: limitedHandler(MINUTE, readLimit, 'Read limit (requests per minute)'),
  });
  const scanLimit = (res: Response) => (callerOf(res).kind === 'pro' ? config.PRO_SCANS_PER_HOUR : config.ANON_SCANS_PER_HOUR);
  const scanStore = new RepoLimiterStore(db, 'scan:', HOUR, now);
  const scansPerHour = limiter('scan', HOUR, scanStore, scanLimit, 'Scan limit (scans per hour)');
  // The same headers scansPerHour sets, from the counter as it stands, without adding to it.
  const peekScansPerHour: RequestHandler = async (req, res, next) => {
    const key = callerKey(req, res);
    const limit = scanLimit(res);
    const info = await scanStore.get(key);
    res.append('RateLimit', `"scan"; r=${Math.max(limit - info.totalHits, 0)}; t=${secondsUntil(info.resetTime, HOUR)}`);
    res.append('RateLimit-Policy', `"scan"; q=${limit}; w=${HOUR / 1000}; pk=:${partitionKeyOf(key)}:`);
    next();
  };
  // Health probes are never counted nor refused, and never need the store to answer (liveness must not
  // depend on it); they still report the caller's read budget when the store can tell.
  const peekReads: RequestHandler = async (req, res, next) => {
    res.locals.caller = { kind: 'anonymous', keyId: null, ip: req.ip ?? '' } satisfies Caller;
    const limit = readLimit(res);
    res.append('RateLimit-Policy', `"read"; q=${limit}; w=${MINUTE / 1000}`);
    try {
      const info = await readStore.get(callerKey(req, res));
      const reset = Math.max(0, Math.ceil(((info.resetTime?.getTime() ?? now()) - now()) / 1000));
      res.append('RateLimit', `"read"; r=${Math.max(0, limit - info.totalHits)}; t=${reset}`);
    } catch {
      /* the store is down: the probe answers anyway, without a remaining count */
    }
    next();
  };
  const proQuota = rollingQuota(db, config.PRO_SCANS_PER_30_DAYS, now);
  const proQuotaGuard = proQuotaGuards(proQuota);
  const counted: RequestHandler = (_req, res, next) => {
    res.locals.scanCounted = true;
    next();
  };
  const countScan = chain([counted, scansPerHour, proQuotaGuard.count]);
  const peekScan = chain([peekScansPerHour, proQuotaGuard.peek]);

  // Synchronous for the common caller, who sends neither a key nor a session the request may carry: only a
  // credential costs a store lookup.
  const identify = (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    const ip = req.ip ?? '';
    res.locals.caller = { kind: 'anonymous', keyId: null, ip } satisfies Caller;
    const header = req.headers.authorization;
    if (header === undefined) {
      // A signed-in console session stands for the Pro key on the few same-origin requests it may carry.
      const sessionToken = sessionCarriesPro(req, config.BASE_URL) ? sessionTokenOf(req, config.BASE_URL) : undefined;
      if (!sessionToken) return next();
      return resolveProIdentity(db, { sessionToken }).then((identity) => {
        if (identity) {
          res.locals.caller = { kind: 'pro', keyId: null, accountId: identity.accountId, ip } satisfies Caller;
          res.locals.proSession = identity.session;
        }
        next();
      });
    }
    const token = /^Bearer ([\x21-\x7e]{1,200})$/.exec(header)?.[1];
    if (!token) {
      res.locals.authError = true;
      return next();
    }
    return resolveProIdentity(db, { bearer: token }).then((identity) => {
      if (identity) res.locals.caller = { kind: 'pro', keyId: identity.keyId, accountId: identity.accountId, ip } satisfies Caller;
      else res.locals.authError = true;
      next();
    });
  };

  const auth = (mode: 'none' | 'optional' | 'pro'): RequestHandler => (_req, res, next) => {
    // docs/security.md "Decisions": a bad key is a 401 everywhere on the API, never a silent fall-back.
    if (res.locals.authError) return next(unauthorized('The API key is invalid or revoked.', true));
    if (mode === 'pro' && callerOf(res).kind !== 'pro') {
      return next(unauthorized('This endpoint needs a Pro API key: send Authorization: Bearer <API_KEY>.', false));
    }
    next();
  };

  const everyOther = chain([identify, reads]);
  const pass: RequestHandler = (_req, _res, next) => next();
  return {
    auth,
    limit: (kind) => (kind === 'scan' ? countScan : pass),
    peek: (kind) =>
      kind === 'scan'
        ? (req, res, next) => {
            if (res.locals.scanCounted || res.headersSent) return next();
            // A refusal answers whatever the counters say: a store that cannot be read costs the headers only.
            void peekScan(req, res, () => next());
          }
        : pass,
    everyRequest: (req, res, next) => (HEALTH_PATHS.has(req.path) ? peekReads : everyOther)(req, res, next),
    async proUsage(identity) {
      const [hour, days] = await Promise.all([
        scanStore.get(quotaIdOf(identity)),
        proQuota.state(identity),
      ]);
      return {
        hour: { used: hour.totalHits, limit: config.PRO_SCANS_PER_HOUR, resetSeconds: secondsUntil(hour.resetTime, HOUR) },
        days30: { used: days.used, limit: config.PRO_SCANS_PER_30_DAYS, resetSeconds: days.resetSeconds },
      };
    },
  };
}

/** Runs middlewares in order, stopping at the first error (a rejected promise from an async one included). */
function chain(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    const run = (i: number): void => {
      if (i === handlers.length) return next();
      const result: unknown = handlers[i](req, res, (err?: unknown) => (err ? next(err) : run(i + 1)));
      if (result instanceof Promise) result.catch(next);
    };
    run(0);
  };
}

/** The Caller's quota holder: its account's, or its key's own. */
const holderOf = (caller: Caller): QuotaHolder => ({ accountId: caller.accountId ?? null, keyId: caller.keyId });

/**
 * The rolling 30-day Pro quota (accounts/quota.ts) on a scan route, Pro callers only: `count` spends one unit or
 * refuses; `peek` only reports what is left.
 */
function proQuotaGuards(proQuota: RollingQuota) {
  const { quota } = proQuota;
  const policy = `"pro-30d"; q=${quota}; w=${QUOTA_WINDOW_SECONDS}`;
  return {
    async count(_req: Request, res: Response, next: NextFunction) {
      const caller: Caller = res.locals.caller;
      if (caller.kind !== 'pro') return next();
      const { spent, state } = await proQuota.spend(holderOf(caller));
      res.append('RateLimit-Policy', policy);
      if (!spent) {
        res.append('RateLimit', `"pro-30d"; r=0; t=${state.resetSeconds}`);
        return next(rateLimited(`Pro scan quota of ${quota} scans per 30 days reached`, state.resetSeconds));
      }
      res.append('RateLimit', `"pro-30d"; r=${quota - state.used - 1}; t=${state.resetSeconds}`);
      next();
    },
    async peek(_req: Request, res: Response, next: NextFunction) {
      const caller: Caller = res.locals.caller;
      if (caller.kind !== 'pro') return next();
      const { used, resetSeconds } = await proQuota.state(holderOf(caller));
      res.append('RateLimit-Policy', policy);
      res.append('RateLimit', `"pro-30d"; r=${Math.max(quota - used, 0)}; t=${resetSeconds}`);
      next();
    },
  };
}

function rateLimited(what: string, retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', `Rate limit hit: ${what}. Retry in ${retryAfterSeconds} seconds.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
}

function unauthorized(message: string, badToken: boolean): AppError {
  return new AppError('UNAUTHORIZED', message, undefined, {
    'WWW-Authenticate': badToken ? `${REALM}, error="invalid_token"` : REALM,
  });
}
