// MonitoringRepo on MongoDB. Thin: every filter and update comes from monitoring-queries.ts, and it follows
// MongoRepo's rules (db/mongo/repo.ts): claims are one findOneAndUpdate each; steps that span documents (fan-out,
// attempt records) run in MongoRepo's transaction where the deployment has them, and are idempotent where it
// does not: deliveries are upserted on a unique dedupe key, and a lease token guards every finishing write.
import { randomUUID } from 'node:crypto';
import { MongoServerError, type ClientSession, type Collection, type Db } from 'mongodb';
import * as M from './monitoring-queries.js';
import type { AttemptDoc, ClaimDoc, DeliveryDoc, EndpointDoc, MonitorDoc, MonitorSlotsDoc, ScanOutbox } from './monitoring-queries.js';
import type { ScanDoc } from './queries.js';
import { toScanSummary } from './docs.js';
import {
  ATTEMPTS_KEPT_PER_ENDPOINT,
  DELIVERIES_IN_FLIGHT_PER_ACCOUNT,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryNext,
  type Leased,
  type Monitor,
  type MonitoringRepo,
  type NewDelivery,
  type OwnershipClaim,
  type ScanEventRow,
  type ScanSummary,
  type VerificationMethod,
  type WebhookEndpoint,
} from '../monitoring-repo.js';
import type { MongoRunner } from './runner.js';

const isDuplicateKey = (err: unknown): boolean => err instanceof MongoServerError && err.code === 11000;

const toClaim = (d: ClaimDoc): OwnershipClaim => ({
  accountId: d.accountId,
  host: d.host,
  origin: d.origin,
  token: d.token,
  createdAt: d.createdAt,
  verifiedAt: d.verifiedAt ?? null,
  method: (d.method ?? null) as VerificationMethod | null,
});

const toMonitor = (d: MonitorDoc): Monitor => ({
  id: d._id,
  accountId: d.accountId,
  host: d.host,
  origin: d.origin,
  cadence: d.cadence as Monitor['cadence'],
  nextRunAt: d.nextRunAt,
  createdAt: d.createdAt,
  lastRunAt: d.lastRunAt ?? null,
  lastOutcome: d.lastOutcome ?? null,
  lastScanId: d.lastScanId ?? null,
});

const toEndpoint = (d: EndpointDoc): WebhookEndpoint => ({
  id: d._id,
  accountId: d.accountId,
  url: d.url,
  events: d.events,
  secretEnc: d.secretEnc,
  previousSecretEnc: d.previousSecretEnc ?? null,
  previousSecretUntil: d.previousSecretUntil ?? null,
  createdAt: d.createdAt,
  disabledAt: d.disabledAt ?? null,
  disabledReason: d.disabledReason ?? null,
  failingSince: d.failingSince ?? null,
});

const endpointToDoc = (e: WebhookEndpoint): EndpointDoc => {
  const { id, ...rest } = e;
  return { _id: id, ...rest };
};

const toDelivery = (d: DeliveryDoc): Delivery => ({
  id: d._id,
  dedupeKey: d.dedupeKey,
  endpointId: d.endpointId,
  messageId: d.messageId,
  eventType: d.eventType,
  payload: d.payload,
  nextAttemptAt: d.nextAttemptAt,
  createdAt: d.createdAt,
  attempts: d.attempts,
  state: d.state as Delivery['state'],
});

const toAttempt = (d: AttemptDoc): DeliveryAttempt => ({
  endpointId: d.endpointId,
  deliveryId: d.deliveryId,
  messageId: d.messageId,
  eventType: d.eventType,
  attempt: d.attempt,
  status: d.status,
  outcome: d.outcome,
  durationMs: d.durationMs,
  at: d.at,
});

type ScanWithOutbox = ScanDoc & { outbox?: ScanOutbox };

/** Due deliveries of free endpoints read per claim, oldest first, to pick the fairest among. */
const FAIR_CLAIM_CANDIDATES = 200;

export class MongoMonitoring implements MonitoringRepo {
  private readonly claims: Collection<ClaimDoc>;
  private readonly monitors: Collection<MonitorDoc>;
  private readonly slots: Collection<MonitorSlotsDoc>;
  private readonly endpoints: Collection<EndpointDoc>;
  private readonly deliveries: Collection<DeliveryDoc>;
  private readonly attempts: Collection<AttemptDoc>;
  private readonly scans: Collection<ScanWithOutbox>;
  private seq = 0;

  constructor(
    db: Db,
    private readonly isDelisted: (host: string) => Promise<boolean>,
    private readonly run: MongoRunner,
  ) {
    this.claims = db.collection<ClaimDoc>('ownership_claims');
    this.monitors = db.collection<MonitorDoc>('monitors');
    this.slots = db.collection<MonitorSlotsDoc>('monitor_slots');
    this.endpoints = db.collection<EndpointDoc>('webhook_endpoints');
    this.deliveries = db.collection<DeliveryDoc>('webhook_deliveries');
    this.attempts = db.collection<AttemptDoc>('webhook_attempts');
    this.scans = db.collection<ScanWithOutbox>('scans');
  }

  /** Called by MongoRepo.init once connected. */
  async init(): Promise<void> {
    await Promise.all([
      this.claims.createIndexes(M.MONITORING_INDEXES.ownership_claims),
      this.monitors.createIndexes(M.MONITORING_INDEXES.monitors),
      this.endpoints.createIndexes(M.MONITORING_INDEXES.webhook_endpoints),
      this.deliveries.createIndexes(M.MONITORING_INDEXES.webhook_deliveries),
      this.attempts.createIndexes(M.MONITORING_INDEXES.webhook_attempts),
      this.scans.createIndexes(M.MONITORING_INDEXES.scans),
    ]);
  }

  async scanHistory(host: string, limit: number): Promise<ScanSummary[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0 || (await this.isDelisted(host))) return [];
    const docs = await this.scans
      .find(M.scanHistoryFilter(host), { projection: M.HISTORY_PROJECTION, ...this.run.opts(undefined) })
      .sort(M.NEWEST_SCAN_SORT)
      .limit(n)
      .toArray();
    return docs.map(toScanSummary);
  }

  async previousScanId(host: string, scanId: number): Promise<number | null> {
    const current = await this.scans.findOne({ _id: { $eq: scanId } }, { projection: { createdAt: 1 }, ...this.run.opts(undefined) });
    if (!current) return null;
    const prev = await this.scans.findOne(M.scansBefore(host, current.createdAt, scanId), {
      projection: { _id: 1 },
      sort: M.NEWEST_SCAN_SORT,
      ...this.run.opts(undefined),
    });
    return prev?._id ?? null;
  }

  async putClaim(claim: OwnershipClaim): Promise<OwnershipClaim> {
    const doc: ClaimDoc = { _id: M.claimId(claim.accountId, claim.host), ...claim };
    try {
      await this.claims.updateOne(M.claimByAccountHost(claim.accountId, claim.host), M.claimInsertOnce(doc), { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a concurrent first claim won; it is read below
    }
    return toClaim((await this.claims.findOne(M.claimByAccountHost(claim.accountId, claim.host)))!);
  }

  async getClaim(accountId: string, host: string): Promise<OwnershipClaim | null> {
    const doc = await this.claims.findOne(M.claimByAccountHost(accountId, host));
    return doc ? toClaim(doc) : null;
  }

  async listClaims(accountId: string): Promise<OwnershipClaim[]> {
    return (await this.claims.find(M.claimsOfAccount(accountId)).sort({ createdAt: 1, host: 1 }).toArray()).map(toClaim);
  }

  async markVerified(accountId: string, host: string, at: Date, method: VerificationMethod): Promise<void> {
    await this.claims.updateOne(M.claimByAccountHost(accountId, host), M.claimVerify(at, method));
  }

  async claimDueRecheck(now: Date, checkedBefore: Date): Promise<OwnershipClaim | null> {
    const doc = await this.claims.findOneAndUpdate(M.claimsDueRecheck(checkedBefore), { $set: { checkedAt: now } }, { sort: M.RECHECK_SORT, returnDocument: 'after' });
    return doc ? toClaim(doc) : null;
  }

  async clearVerified(accountId: string, host: string): Promise<void> {
    await this.claims.updateOne(M.claimByAccountHost(accountId, host), M.CLAIM_UNVERIFY, this.run.opts(undefined));
  }

  async verifiedClaims(host: string): Promise<OwnershipClaim[]> {
    return (await this.claims.find(M.verifiedClaimsOfHost(host)).sort(M.VERIFIED_SORT).toArray()).map(toClaim);
  }

  async addMonitor(monitor: Monitor, max: number): Promise<'added' | 'limit' | 'exists'> {
    try {
      await this.slots.updateOne(M.monitorSlotFilter(monitor.accountId, max), M.monitorSlotChange(1), { upsert: true });
    } catch (err) {
      if (isDuplicateKey(err)) return 'limit'; // every slot is taken: the filter missed and the upsert collided
      throw err;
    }
    const { id, ...rest } = monitor;
    try {
      await this.monitors.insertOne({ _id: id, ...rest, leaseUntil: M.FREE, leaseToken: null });
      return 'added';
    } catch (err) {
      await this.slots.updateOne({ _id: { $eq: monitor.accountId } }, M.monitorSlotChange(-1));
      if (isDuplicateKey(err)) return 'exists';
      throw err;
    }
  }

  async listMonitors(accountId: string): Promise<Monitor[]> {
    return (await this.monitors.find({ accountId: { $eq: accountId } }).sort({ createdAt: 1, host: 1 }).toArray()).map(toMonitor);
  }

  async removeMonitor(accountId: string, id: string): Promise<boolean> {
    const res = await this.monitors.deleteOne(M.monitorOfAccount(accountId, id));
    if (res.deletedCount === 0) return false;
    await this.slots.updateOne({ _id: { $eq: accountId } }, M.monitorSlotChange(-1));
    return true;
  }

  async claimDueMonitor(now: Date, leaseMs: number): Promise<Leased<Monitor> | null> {
    const token = randomUUID();
    const doc = await this.monitors.findOneAndUpdate(
      M.dueMonitorFilter(now),
      M.takeLease(new Date(now.getTime() + leaseMs), token),
      { sort: M.DUE_MONITOR_SORT, returnDocument: 'after', ...this.run.opts(undefined) },
    );
    return doc ? { row: toMonitor(doc), leaseToken: token } : null;
  }

  async finishMonitorRun(
    claim: Leased<Monitor>,
    done: { nextRunAt: Date; at: Date; outcome: string; scanId: number | null },
  ): Promise<boolean> {
    const res = await this.monitors.updateOne(M.heldLease(claim.row.id, claim.leaseToken), M.finishMonitor(done));
    return res.matchedCount > 0;
  }

  async addEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await this.endpoints.insertOne(endpointToDoc(endpoint));
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const doc = await this.endpoints.findOne({ _id: { $eq: id } });
    return doc ? toEndpoint(doc) : null;
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return (await this.endpoints.find({ accountId: { $eq: accountId } }).sort({ createdAt: 1, _id: 1 }).toArray()).map(toEndpoint);
  }

  async updateEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    const { _id, accountId: _a, url: _u, createdAt: _c, ...mutable } = endpointToDoc(endpoint);
    await this.endpoints.updateOne({ _id: { $eq: _id } }, { $set: mutable });
  }

  async removeEndpoint(accountId: string, id: string): Promise<boolean> {
    return (await this.endpoints.deleteOne({ _id: { $eq: id }, accountId: { $eq: accountId } })).deletedCount > 0;
  }

  async endpointsForHost(host: string): Promise<WebhookEndpoint[]> {
    const owners = await this.claims.find(M.verifiedClaimsOfHost(host), { projection: { accountId: 1 } }).toArray();
    if (owners.length === 0) return [];
    const docs = await this.endpoints.find(M.endpointsOfAccounts(owners.map((o) => o.accountId))).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toEndpoint);
  }

  async claimScanEvent(now: Date, leaseMs: number): Promise<Leased<ScanEventRow> | null> {
    const token = randomUUID();
    const doc = await this.scans.findOneAndUpdate(
      M.dueScanEventFilter(now),
      M.takeScanEventLease(new Date(now.getTime() + leaseMs), token),
      { sort: M.DUE_SCAN_EVENT_SORT, projection: { _id: 1, host: 1, createdAt: 1 }, returnDocument: 'after', ...this.run.opts(undefined) },
    );
    return doc ? { row: M.toScanEventRow(doc), leaseToken: token } : null;
  }

  // Standalone order: deliveries first (upserts, so a repeat adds nothing), then the outbox row is cleared.
  async completeScanEvent(claim: Leased<ScanEventRow>, deliveries: NewDelivery[]): Promise<boolean> {
    return this.run.tx(async (session) => {
      for (const d of deliveries) await this.upsertDelivery(d, session);
      const res = await this.scans.updateOne(M.heldScanEvent(claim.row.scanId, claim.leaseToken), M.CLEAR_OUTBOX, this.run.opts(session));
      return res.matchedCount > 0;
    });
  }

  // An upsert on the unique dedupe key: a delivery fanned out before (a crash between fan-out and clearing the
  // outbox) is left as it is; the server retries two first writers of one key.
  private async upsertDelivery(delivery: NewDelivery, session: ClientSession | undefined): Promise<void> {
    try {
      await this.deliveries.updateOne(M.deliveryByDedupeKey(delivery.dedupeKey), M.deliveryInsertOnce(delivery), { upsert: true, ...this.run.opts(session) });
    } catch (err) {
      if (session || !isDuplicateKey(err)) throw err;
    }
  }

  async addDelivery(delivery: NewDelivery): Promise<void> {
    await this.upsertDelivery(delivery, undefined);
  }

  async oldestPendingDelivery(): Promise<Date | null> {
    const doc = await this.deliveries.findOne({ state: { $eq: 'pending' } }, { sort: { createdAt: 1 }, projection: { createdAt: 1 } });
    return doc?.createdAt ?? null;
  }

  async getDelivery(id: string): Promise<Delivery | null> {
    const doc = await this.deliveries.findOne({ _id: { $eq: id } });
    return doc ? toDelivery(doc) : null;
  }

  // The fair claim in steps, MongoDB having no cross-document condition on one update: read what is in flight,
  // pick among the due deliveries of free endpoints the one of the account with the fewest in flight, lease it,
  // then look again. Should another instance have leased a delivery of the same endpoint meanwhile, this lease
  // yields (both may yield; the next pass tries again), so an endpoint never has two in flight. The per-account
  // cap is read, not locked: instances claiming at the same instant may pass it by one each.
  async claimDueDelivery(now: Date, leaseMs: number): Promise<Leased<Delivery> | null> {
    const token = randomUUID();
    const inFlight = await this.deliveries.find(M.deliveriesInFlight(now), { projection: { endpointId: 1 } }).toArray();
    const accountOf = await this.accountsOfEndpoints(inFlight.map((d) => d.endpointId));
    const perAccount = new Map<string, number>();
    for (const d of inFlight) {
      const account = accountOf.get(d.endpointId);
      if (account) perAccount.set(account, (perAccount.get(account) ?? 0) + 1);
    }
    const capped = [...perAccount].filter(([, n]) => n >= DELIVERIES_IN_FLIGHT_PER_ACCOUNT).map(([account]) => account);
    const cappedEndpoints = capped.length ? await this.endpoints.find(M.endpointsOfAccounts(capped), { projection: { _id: 1 } }).toArray() : [];
    const busy = [...new Set([...inFlight.map((d) => d.endpointId), ...cappedEndpoints.map((e) => e._id)])];
    const due = await this.deliveries
      .find(M.dueDeliveryElsewhere(now, busy), { projection: { _id: 1, endpointId: 1 } })
      .sort(M.DUE_DELIVERY_SORT)
      .limit(FAIR_CLAIM_CANDIDATES)
      .toArray();
    const dueAccounts = await this.accountsOfEndpoints(due.map((d) => d.endpointId));
    const load = (endpointId: string) => perAccount.get(dueAccounts.get(endpointId) ?? '') ?? 0;
    const order = due.map((d, i) => ({ d, i })).sort((a, b) => load(a.d.endpointId) - load(b.d.endpointId) || a.i - b.i);
    for (const { d } of order) {
      const doc = await this.deliveries.findOneAndUpdate(
        { ...M.dueDeliveryFilter(now), _id: { $eq: d._id } },
        M.takeLease(new Date(now.getTime() + leaseMs), token),
        { returnDocument: 'after', ...this.run.opts(undefined) },
      );
      if (!doc) continue; // another instance took it
      if ((await this.deliveries.countDocuments(M.rivalInFlight(now, doc.endpointId, doc._id))) > 0) {
        await this.deliveries.updateOne(M.heldLease(doc._id, token), M.releaseLease());
        return null;
      }
      return { row: toDelivery(doc), leaseToken: token };
    }
    return null;
  }

  async postponeDelivery(claim: Leased<Delivery>, until: Date): Promise<boolean> {
    const res = await this.deliveries.updateOne({ ...M.heldLease(claim.row.id, claim.leaseToken), state: { $eq: 'pending' } }, M.postponeDelivery(until));
    return res.matchedCount > 0;
  }

  private async accountsOfEndpoints(ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const docs = await this.endpoints.find({ _id: { $in: unique } }, { projection: { _id: 1, accountId: 1 } }).toArray();
    return new Map(docs.map((e) => [e._id, e.accountId]));
  }

  // Standalone order: the delivery moves first (the lease check), then its attempt is recorded and old ones pruned.
  async recordAttempt(claim: Leased<Delivery>, a: DeliveryAttempt, next: DeliveryNext): Promise<boolean> {
    const seq = this.seq++;
    return this.run.tx(async (session) => {
      const res = await this.deliveries.updateOne(M.heldLease(claim.row.id, claim.leaseToken), M.moveDelivery(next, a.at), this.run.opts(session));
      if (res.matchedCount === 0) return false;
      await this.attempts.insertOne({ ...a, seq, expiresAt: new Date(a.at.getTime() + M.ATTEMPT_TTL_MS) }, this.run.opts(session));
      const [oldestDropped] = await this.attempts
        .find(M.attemptsOfEndpoint(a.endpointId), { projection: { at: 1, seq: 1 }, ...this.run.opts(session) })
        .sort(M.NEWEST_ATTEMPT_SORT)
        .skip(ATTEMPTS_KEPT_PER_ENDPOINT)
        .limit(1)
        .toArray();
      if (oldestDropped) await this.attempts.deleteMany(M.attemptsNotNewerThan(a.endpointId, oldestDropped.at, oldestDropped.seq), this.run.opts(session));
      return true;
    });
  }

  // Standalone order: the claims go first, so nothing of the account is delivered or scanned any more.
  async removeAccount(accountId: string): Promise<void> {
    const mine = { accountId: { $eq: accountId } };
    await this.run.tx(async (session) => {
      await this.claims.deleteMany(mine, this.run.opts(session));
      await this.monitors.deleteMany(mine, this.run.opts(session));
      await this.slots.deleteOne({ _id: { $eq: accountId } }, this.run.opts(session));
      await this.endpoints.deleteMany(mine, this.run.opts(session));
    });
  }

  async listAttempts(endpointId: string, limit: number): Promise<DeliveryAttempt[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    return (await this.attempts.find(M.attemptsOfEndpoint(endpointId)).sort(M.NEWEST_ATTEMPT_SORT).limit(n).toArray()).map(toAttempt);
  }
}
