// What the HTTP surfaces need of the limits (rest/limits.ts makes them): auth per route, counting a call, the
// RateLimit headers of a refused one. Declared here so that pages/ and the console use them without importing rest/.
import type { RequestHandler } from 'express';
import type { AppParts } from '../tools/context.js';

export interface Guards {
  /** Enforces the route's auth mode on the caller found by everyRequest: 401 (docs/security.md "Decisions"). */
  auth(mode: 'none' | 'optional' | 'pro'): RequestHandler;
  /** The scan or read limiter for one route: counts the call (design: only a call that starts a scan counts). */
  limit(kind: 'scan' | 'read'): RequestHandler;
  /**
   * The limiter's RateLimit headers without counting, for a call refused before it started (bad arguments, a
   * refused target); nothing once the call was counted, whose headers are already set.
   */
  peek(kind: 'scan' | 'read'): RequestHandler;
  /** Runs on every response: identifies the caller, sets RateLimit headers, enforces the per-minute read limit. */
  everyRequest: RequestHandler;
  /** What the scan limiters would say of a Pro identity now, without counting: the console's usage figures. */
  proUsage(identity: { accountId: string | null; keyId: string | null }): Promise<ProUsage>;
}

export interface ProUsage {
  hour: { used: number; limit: number; resetSeconds: number };
  days30: { used: number; limit: number; resetSeconds: number };
}

/** What every HTTP surface is built from: the app's parts and its guards. */
export interface SurfaceDeps extends Omit<AppParts, 'metrics'> {
  guards: Guards;
}
