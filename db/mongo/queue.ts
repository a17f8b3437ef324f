// QueueRepo and AuditRepo on MongoDB. Thin: every filter and update comes from queue-queries.ts. MongoDB has no
// condition across documents in one update, so a polite claim goes in steps, each atomic on its document: read the
// hosts with claimable work (a DISTINCT_SCAN of the claim index), take the turn of a free and due one (its pace
// document), then take one of its items; an item gone meanwhile gives the turn back as it was. Finishing writes the
// item (guarded by its lease token) before the turn goes back, so a crash between leaves a turn that its lease frees.
import { randomUUID } from 'node:crypto';
import { MongoServerError, type Collection, type Db } from 'mongodb';
import * as W from './queue-queries.js';
import type { AuditDoc, PaceDoc, WorkDoc } from './queue-queries.js';
import type { Leased } from '../monitoring-repo.js';
import type { ClaimOptions, GroupCounts, HostPace, NewWork, QueueRepo, WorkItem, WorkKind, WorkResult } from '../queue-repo.js';
import type { AuditRecord, AuditRepo } from '../audit-repo.js';
import type { MongoRunner } from './runner.js';

const isDuplicateKey = (err: unknown): boolean => err instanceof MongoServerError && err.code === 11000;

/** Free hosts read per claim, due longest first, to try in turn. */
const HOST_CANDIDATES = 20;

const toItem = (d: WorkDoc): WorkItem => ({
  id: d._id,
  kind: d.kind as WorkKind,
  group: d.group,
  host: d.host,
  url: d.url,
  seq: d.seq,
  createdAt: d.createdAt,
  attempts: d.attempts,
});

export class MongoQueue implements QueueRepo {
  private readonly work: Collection<WorkDoc>;
  private readonly pace: Collection<PaceDoc>;

  constructor(
    db: Db,
    private readonly run: MongoRunner,
  ) {
    this.work = db.collection<WorkDoc>('work_items');
    this.pace = db.collection<PaceDoc>('host_pace');
  }

  async init(): Promise<void> {
    await Promise.all([this.work.createIndexes(W.QUEUE_INDEXES.work_items), this.pace.createIndexes(W.QUEUE_INDEXES.host_pace)]);
  }

  private async seedPace(key: string): Promise<void> {
    try {
      await this.pace.updateOne(W.paceById(key), W.PACE_INSERT_ONCE, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // another instance seeded it first
    }
  }

  // The pace documents first: an item is never queued without the document its claim needs.
  async enqueue(items: NewWork[]): Promise<number> {
    for (const host of new Set(items.map((i) => i.host))) await this.seedPace(host);
    let added = 0;
    for (const item of items) {
      try {
        const res = await this.work.updateOne(W.workByGroupUrl(item.group, item.url), W.workInsertOnce(item), { upsert: true });
        added += res.upsertedCount;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return added;
  }

  async claim(kind: WorkKind, now: Date, leaseMs: number, opts: ClaimOptions): Promise<Leased<WorkItem> | null> {
    const token = randomUUID();
    const until = new Date(now.getTime() + leaseMs);
    let rateNext: Date | null = null;
    if (opts.rate) {
      if ((await this.work.countDocuments(W.claimableWork(kind, now), { limit: 1, ...this.run.opts() })) === 0) return null;
      await this.seedPace(opts.rate.key);
      rateNext = new Date(now.getTime() + opts.rate.intervalMs);
      const slot = await this.pace.findOneAndUpdate(W.rateDue(opts.rate.key, now), W.rateNext(rateNext), this.run.opts());
      if (!slot) return null;
    }
    const claimed = opts.polite ? await this.claimPolitely(kind, now, until, token) : await this.claimItem(W.claimableWork(kind, now), until, token);
    if (!claimed && opts.rate && rateNext) {
      await this.pace.updateOne(W.rateTakenAt(opts.rate.key, rateNext), W.rateNext(now)); // unused: the slot goes back
    }
    return claimed ? { row: toItem(claimed), leaseToken: token } : null;
  }

  private async claimItem(filter: ReturnType<typeof W.claimableWork>, until: Date, token: string): Promise<WorkDoc | null> {
    return this.work.findOneAndUpdate(filter, W.leaseItem(until, token), { sort: W.ITEM_SORT, returnDocument: 'after', ...this.run.opts() });
  }

  private async claimPolitely(kind: WorkKind, now: Date, until: Date, token: string): Promise<WorkDoc | null> {
    const hosts = (await this.work.distinct('host', W.claimableWork(kind, now), this.run.opts())) as string[];
    if (hosts.length === 0) return null;
    const free = await this.pace.find(W.freeHosts(hosts, now), { projection: { _id: 1 }, ...this.run.opts() }).sort(W.PACE_SORT).limit(HOST_CANDIDATES).toArray();
    for (const { _id: host } of free) {
      const turn = await this.pace.findOneAndUpdate(W.freeHost(host, now), W.lease(until, token), this.run.opts());
      if (!turn) continue; // another instance took this host's turn
      const item = await this.claimItem(W.claimableOfHost(kind, host, now), until, token);
      if (item) return item;
      await this.pace.updateOne(W.heldHost(host, token), W.RETURN_HOST);
    }
    return null;
  }

  async nextReadyAt(kind: WorkKind, now: Date, rateKey?: string): Promise<Date | null> {
    const hosts = (await this.work.distinct('host', W.queuedOfKind(kind), this.run.opts())) as string[];
    if (hosts.length === 0) return null;
    const docs = await this.pace.find(W.pacesOf(hosts), { projection: { nextAt: 1, leaseUntil: 1 }, ...this.run.opts() }).toArray();
    if (docs.length === 0) return now;
    let at = Math.min(...docs.map((d) => Math.max(d.nextAt.getTime(), d.leaseUntil.getTime())));
    if (rateKey !== undefined) at = Math.max(at, (await this.pace.findOne(W.paceById(rateKey), this.run.opts()))?.nextAt.getTime() ?? 0);
    return new Date(at);
  }

  async renew(claim: Leased<WorkItem>, until: Date): Promise<boolean> {
    const res = await this.work.updateOne(W.heldItem(claim.row.id, claim.leaseToken), W.renewLease(until));
    await this.pace.updateOne(W.heldHost(claim.row.host, claim.leaseToken), W.renewLease(until));
    return res.matchedCount > 0;
  }

  async finish(claim: Leased<WorkItem>, done: { state: 'done' | 'failed'; result: string | null; at: Date; hostFreeAt: Date }): Promise<boolean> {
    const res = await this.work.updateOne(W.heldItem(claim.row.id, claim.leaseToken), W.finishItem(done.state, done.result, done.at));
    await this.pace.updateOne(W.heldHost(claim.row.host, claim.leaseToken), W.releaseHost(done.hostFreeAt));
    return res.matchedCount > 0;
  }

  async retryLater(claim: Leased<WorkItem>, hostFreeAt: Date): Promise<boolean> {
    const res = await this.work.updateOne(W.heldItem(claim.row.id, claim.leaseToken), W.RETURN_ITEM);
    await this.pace.updateOne(W.heldHost(claim.row.host, claim.leaseToken), W.releaseHost(hostFreeAt));
    return res.matchedCount > 0;
  }

  async counts(group: string, since: Date): Promise<GroupCounts> {
    const [row] = await this.work.aggregate<GroupCounts>(W.groupCounts(group, since), this.run.opts()).toArray();
    return { queued: row?.queued ?? 0, done: row?.done ?? 0, failed: row?.failed ?? 0, finishedSince: row?.finishedSince ?? 0 };
  }

  async results(group: string, afterSeq: number, limit: number): Promise<WorkResult[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    const docs = await this.work.find(W.groupAfter(group, afterSeq), { projection: W.RESULT_PROJECTION, ...this.run.opts() }).sort(W.ITEM_SORT).limit(n).toArray();
    return docs.map((d) => ({ seq: d.seq, url: d.url, state: d.state, result: d.result ?? null, doneAt: d.doneAt ?? null }));
  }

  async requeueFinished(group: string, before: Date): Promise<number> {
    return (await this.work.updateMany(W.finishedBefore(group, before), W.REQUEUE)).modifiedCount;
  }

  async hostPace(host: string): Promise<HostPace | null> {
    const doc = await this.pace.findOne(W.paceById(host), this.run.opts());
    return doc ? { host: doc._id, nextAt: doc.nextAt, leaseUntil: doc.leaseUntil } : null;
  }
}

const toAudit = (d: AuditDoc): AuditRecord => ({
  id: d._id,
  accountId: d.accountId,
  host: d.host,
  url: d.url,
  maxPages: d.maxPages,
  status: d.status,
  createdAt: d.createdAt,
  discovered: d.discovered ?? null,
  planned: d.planned ?? null,
  delayMs: d.delayMs,
  finishedAt: d.finishedAt ?? null,
  error: d.error ?? null,
  result: d.result ?? null,
});

export class MongoAudits implements AuditRepo {
  private readonly audits: Collection<AuditDoc>;

  constructor(
    db: Db,
    private readonly run: MongoRunner,
  ) {
    this.audits = db.collection<AuditDoc>('audits');
  }

  async init(): Promise<void> {
    await this.audits.createIndexes(W.QUEUE_INDEXES.audits);
  }

  // One in progress per account and host is the unique active key's; the per-account cap is read, not locked:
  // two starts at the same instant may pass it by one.
  async createAudit(audit: AuditRecord, maxInProgress: number): ReturnType<AuditRepo['createAudit']> {
    const running = await this.audits.findOne(W.activeAuditOfHost(audit.accountId, audit.host), { projection: { _id: 1 }, ...this.run.opts() });
    if (running) return { created: false, running: running._id };
    if ((await this.audits.countDocuments(W.activeAudits(audit.accountId), this.run.opts())) >= maxInProgress) return { created: false, limit: true };
    try {
      await this.audits.insertOne(W.auditToDoc(audit));
      return { created: true };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const other = await this.audits.findOne(W.activeAuditOfHost(audit.accountId, audit.host), { projection: { _id: 1 } });
      return other ? { created: false, running: other._id } : { created: false, limit: true };
    }
  }

  async getAudit(id: string): Promise<AuditRecord | null> {
    const doc = await this.audits.findOne(W.auditById(id), this.run.opts());
    return doc ? toAudit(doc) : null;
  }

  async listAudits(accountId: string, limit: number): Promise<AuditRecord[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    return (await this.audits.find(W.auditsOfAccount(accountId), this.run.opts()).sort(W.NEWEST_AUDIT_SORT).limit(n).toArray()).map(toAudit);
  }

  async previousAudit(accountId: string, host: string, before: Date): Promise<AuditRecord | null> {
    const doc = await this.audits.findOne(W.previousAudit(accountId, host, before), { sort: W.NEWEST_AUDIT_SORT, ...this.run.opts() });
    return doc ? toAudit(doc) : null;
  }

  async markPlanned(id: string, plan: { discovered: number; planned: number; delayMs: number }): Promise<boolean> {
    return (await this.audits.updateOne(W.queuedAudit(id), W.markPlanned(plan))).matchedCount > 0;
  }

  async auditsInProgress(limit: number): Promise<AuditRecord[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    return (await this.audits.find(W.IN_PROGRESS, this.run.opts()).sort(W.OLDEST_AUDIT_SORT).limit(n).toArray()).map(toAudit);
  }

  async claimFinish(id: string, now: Date, leaseMs: number): Promise<Leased<AuditRecord> | null> {
    const token = randomUUID();
    const doc = await this.audits.findOneAndUpdate(W.finishableAudit(id, now), W.lease(new Date(now.getTime() + leaseMs), token), {
      returnDocument: 'after',
      ...this.run.opts(),
    });
    return doc ? { row: toAudit(doc), leaseToken: token } : null;
  }

  async endAudit(
    claim: { row: AuditRecord; leaseToken: string | null },
    end: { status: 'done' | 'failed'; at: Date; result: string | null; error: string | null },
  ): Promise<boolean> {
    return (await this.audits.updateOne(W.endableAudit(claim.row.id, claim.leaseToken), W.endAudit(end))).matchedCount > 0;
  }
}
