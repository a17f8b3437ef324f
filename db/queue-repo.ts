// The work queue part of the storage interface: background work (a deep audit's plan and pages, seeded root scans)
// as rows any instance claims with a lease by one atomic step, and the per-host pace that keeps every instance
// together polite to a store. Both adapters implement it (sqlite/queue.ts, mongo/queue.ts); the contract suite is
// test/db/queue-contract.ts.
//
// Politeness lives here, not in a process: a polite claim takes the item and its host's turn together, and only
// when the host has no request in flight (a live host lease) and its next request is due (next_at). Finishing
// hands the turn back with the time the host may be asked again, so one request at a time per host, spaced, holds
// across all instances. A crashed holder's item and host turn come free when their lease runs out.
import type { Leased } from './monitoring-repo.js';

export type WorkKind = 'audit_plan' | 'audit_page' | 'seed_scan';
export const WORK_KINDS: readonly WorkKind[] = ['audit_plan', 'audit_page', 'seed_scan'];

export interface NewWork {
  id: string;
  kind: WorkKind;
  /** What the item belongs to (an audit's id, or "seed"); (group, url) is unique. */
  group: string;
  /** The politeness key: the host identity the item's requests go to. */
  host: string;
  url: string;
  /** Order within the queue: lower first among the items of one host. */
  seq: number;
  createdAt: Date;
}

export interface WorkItem extends NewWork {
  /** Claims so far, this one included: a poison item is given up on after a few. */
  attempts: number;
}

export type WorkState = 'queued' | 'done' | 'failed';

export interface WorkResult {
  seq: number;
  url: string;
  state: WorkState;
  result: string | null; // the JSON the worker stored when finishing
  doneAt: Date | null;
}

export interface GroupCounts {
  queued: number; // waiting or in flight
  done: number;
  failed: number;
  /** Items finished (done or failed) at or after the `since` instant asked for: the recent pace. */
  finishedSince: number;
}

export interface ClaimOptions {
  /** Take the host's turn with the item (production); false only where politeness is off (loopback benchmarks). */
  polite: boolean;
  /** A shared rate: the claim also needs this pace key due, and moves it intervalMs on (seeded scans). */
  rate?: { key: string; intervalMs: number };
}

export interface HostPace {
  host: string;
  nextAt: Date; // the host's next request may start at this instant
  leaseUntil: Date; // a request is in flight until this instant (or the holder died)
}

export interface QueueRepo {
  /** Adds items; one whose (group, url) is present already is skipped. Returns how many were added. */
  enqueue(items: NewWork[]): Promise<number>;
  /**
   * A queued item of `kind` whose lease is free, leased until now + leaseMs (attempts + 1). Polite: only an item
   * of a host with no request in flight and due now, and the host's turn is leased with it; hosts due longest
   * first, then the lowest seq. Null when nothing may be claimed now.
   */
  claim(kind: WorkKind, now: Date, leaseMs: number, opts: ClaimOptions): Promise<Leased<WorkItem> | null>;
  /** When a polite claim of `kind` may succeed next (the earliest host or rate due), or null when none is queued. */
  nextReadyAt(kind: WorkKind, now: Date, rateKey?: string): Promise<Date | null>;
  /** Extends the item's lease and its host turn to until; false when the lease was lost. */
  renew(claim: Leased<WorkItem>, until: Date): Promise<boolean>;
  /** Finishes the held item and hands the host's turn back, due again at hostFreeAt. False when the lease was lost. */
  finish(claim: Leased<WorkItem>, done: { state: 'done' | 'failed'; result: string | null; at: Date; hostFreeAt: Date }): Promise<boolean>;
  /** Gives the held item back unfinished (the host asked us to wait) and pauses the host until hostFreeAt. */
  retryLater(claim: Leased<WorkItem>, hostFreeAt: Date): Promise<boolean>;
  counts(group: string, since: Date): Promise<GroupCounts>;
  /** Finished and queued items of a group in seq order, after `afterSeq`, at most `limit`. */
  results(group: string, afterSeq: number, limit: number): Promise<WorkResult[]>;
  /** Puts items of `group` finished at or before `before` back in the queue (re-scans on a cadence); returns how many. */
  requeueFinished(group: string, before: Date): Promise<number>;
  hostPace(host: string): Promise<HostPace | null>;
}

/** Leased until this instant: nobody holds it. */
export const FREE_SINCE = new Date(0);
