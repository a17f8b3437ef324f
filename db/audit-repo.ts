// The deep-audit part of the storage interface: one record per audit (who asked, what, how far it got, its
// stored result). Its plan and pages are work items of the queue (db/queue-repo.ts) grouped by the audit's id.
// Both adapters implement it (sqlite/audits.ts, mongo/audits.ts); the contract suite is test/db/audits-contract.ts.
import type { Leased } from './monitoring-repo.js';

export type AuditStatus = 'queued' | 'running' | 'done' | 'failed';

export interface AuditRecord {
  id: string; // aud_ + 128 random bits: whoever holds it reads the audit (docs/decisions.md "Deep audits")
  accountId: string;
  host: string; // host identity, the politeness key
  url: string; // the store's root as normalised
  maxPages: number;
  status: AuditStatus;
  createdAt: Date;
  /** Set once the plan is made: product URLs found, pages planned (sampled evenly when more were found). */
  discovered: number | null;
  planned: number | null;
  /** Spacing between two requests to the host: 1 s or the store's Crawl-delay, whichever is longer. */
  delayMs: number;
  finishedAt: Date | null;
  error: string | null;
  /** The result JSON once done (schemas/deep-audit.ts AuditResult). */
  result: string | null;
}

export interface AuditRepo {
  /**
   * Stores a new audit unless the account has `maxInProgress` audits queued or running already, or one of the same
   * host: one atomic step. 'running' carries the id of the account's audit of that host in progress.
   */
  createAudit(audit: AuditRecord, maxInProgress: number): Promise<{ created: true } | { created: false; limit: true } | { created: false; running: string }>;
  getAudit(id: string): Promise<AuditRecord | null>;
  /** The account's audits, newest first. */
  listAudits(accountId: string, limit: number): Promise<AuditRecord[]>;
  /** The newest finished audit of the host by the account, made before `before` (what the next audit compares with). */
  previousAudit(accountId: string, host: string, before: Date): Promise<AuditRecord | null>;
  /** The plan is made: found and planned counts and the host's spacing; the audit runs. False unless it was queued. */
  markPlanned(id: string, plan: { discovered: number; planned: number; delayMs: number }): Promise<boolean>;
  /** Audits queued or running, oldest first (the worker's sweep for audits to finish). */
  auditsInProgress(limit: number): Promise<AuditRecord[]>;
  /** A running audit leased for computing its result; null when it is not running or another instance holds it. */
  claimFinish(id: string, now: Date, leaseMs: number): Promise<Leased<AuditRecord> | null>;
  /**
   * Stores the result (done) or the error (failed) of an audit: from its finishing lease (running), or with a null token
   * from its plan step (queued). False when the lease was lost or the audit ended already.
   */
  endAudit(claim: { row: AuditRecord; leaseToken: string | null }, end: { status: 'done' | 'failed'; at: Date; result: string | null; error: string | null }): Promise<boolean>;
}

/** Audits an account may have queued or running at once, across all its keys and the console. */
export const AUDITS_IN_PROGRESS_PER_ACCOUNT = 2;
