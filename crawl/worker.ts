// The background crawler every instance runs beside its API: deep audits (their plans and pages) and the seeded
// root scans, all claimed from the queue in the store, so any number of instances share the work, never take one
// item twice, and together keep each store's pace (one request in flight, spaced by its delay). Its slots are its
// own: a fixed number per instance (CRAWL_WORKERS, SEED_CONCURRENCY), a parser thread of its own for pages, and
// seeded scans outside the interactive scan bound, so interactive scans and reads never wait for it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Config } from '../lib/config.js';
import type { Repository } from '../db/repo.js';
import type { AuditRecord } from '../db/audit-repo.js';
import type { Leased } from '../db/monitoring-repo.js';
import type { WorkItem, WorkKind } from '../db/queue-repo.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import { backgroundPagePool } from '../scan/parser-threads/page-pool.js';
import { auditPage, unreadPage, type PageAudit } from '../scan/page-audit.js';
import { describeFailure, retryAfterMs } from './pause.js';
import { fetchOne, CRAWL_REQUEST_MS, type CrawlOverrides } from './fetch-one.js';
import type { RequestSigner } from '../outbound/request-signer.js';
import { planAudit } from './audits/plan.js';
import { computeResult } from './audits/result.js';
import { readPages } from './audits/read.js';
import { planItem, seqBase } from './audits/start.js';
import { queueAuditCompleted } from './audits/event.js';
import { AuditResult } from '../schemas/deep-audit.js';
import { SEED_GROUP, SEED_RATE_KEY } from './seed.js';

/** Runs one seeded root scan (the scan tool, through the one invoke path): its scan id, or why it failed. */
export type SeedScan = (url: string) => Promise<{ scanId: number } | { error: string }>;

export interface CrawlDeps {
  db: Repository;
  config: Config;
  log: Logger;
  runSeedScan: SeedScan;
  metrics?: ServiceMetrics;
  overrides?: CrawlOverrides;
  now?: () => Date;
  /** The scanner's signer (Web Bot Auth) when the instance signs its requests; none: they go unsigned. */
  requestSigner?: () => Promise<RequestSigner>;
}

export interface CrawlWorker {
  /** One pass: everything claimable now is handled; resolves when the slots are idle. */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** A lease outlives the longest request with room to spare; the plan renews its own while it reads sitemaps. */
const ITEM_LEASE_MS = CRAWL_REQUEST_MS + 30_000;
const FINISH_LEASE_MS = 5 * 60_000;
/** An item claimed this often without finishing (its holders died on it) is given up. */
const MAX_ATTEMPTS = 3;
const REQUEUE_EVERY_MS = 60_000;
const LEASE_MARGIN_MS = 5_000;

/** The item's lease went to another instance while this one held it: stop without touching it. */
class LeaseLost extends Error {}

export function createCrawlWorker(deps: CrawlDeps): CrawlWorker {
  const { db, config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const polite = config.CRAWL_POLITENESS === 'on';
  const reader = backgroundPagePool(1);
  const audits = new Map<string, AuditRecord>(); // running audits' records, read once per instance
  const seedLease = 2 * config.SCAN_TIMEOUT_MS + 60_000;

  const finish = (claim: Leased<WorkItem>, state: 'done' | 'failed', result: unknown, delayMs: number) => {
    const at = now();
    deps.metrics?.crawlItems.inc({ kind: claim.row.kind, outcome: state });
    return db.queue.finish(claim, { state, result: result === null ? null : JSON.stringify(result), at, hostFreeAt: new Date(at.getTime() + (polite ? delayMs : 0)) });
  };

  async function auditOf(id: string): Promise<AuditRecord | null> {
    const cached = audits.get(id);
    if (cached) return cached;
    const audit = await db.audits.getAudit(id);
    if (audit?.status === 'running') audits.set(id, audit);
    return audit;
  }

  async function runPlan(claim: Leased<WorkItem>): Promise<void> {
    const audit = await db.audits.getAudit(claim.row.group.slice('plan:'.length));
    if (!audit || audit.status !== 'queued') return void (await finish(claim, 'done', null, config.CRAWL_DELAY_MS));
    const fail = async (error: string) => {
      await queueAuditCompleted(db, audit, { status: 'failed', result: null, error, at: now() }, config.BASE_URL);
      await db.audits.endAudit({ row: audit, leaseToken: null }, { status: 'failed', at: now(), result: null, error });
      await finish(claim, 'failed', { error }, config.CRAWL_DELAY_MS);
    };
    try {
      const plan = await planAudit(new URL(audit.url), config.CRAWL_DELAY_MS, audit.maxPages, {
        fetch: async (url, opts) => fetchOne(url, opts, { config, overrides: deps.overrides, redirects: 3, signer: await deps.requestSigner?.() }),
        // Before each request: the delay, then the lease renewed; a plan whose lease another instance took meanwhile
        // (this one was slowed past it) stops here rather than send a request in someone else's turn.
        pause: async (ms) => {
          if (polite) await sleep(ms);
          if (!(await db.queue.renew(claim, new Date(now().getTime() + ITEM_LEASE_MS)))) throw new LeaseLost();
        },
        read: reader.read,
      }, audit.id);
      if (plan.urls.length === 0) return await fail('No product page found: the sitemaps list none (or robots.txt keeps the scanner out), and neither does the homepage.');
      const base = seqBase(audit.createdAt);
      await db.queue.enqueue(plan.urls.map((url, i) => ({ id: `${audit.id}:${i + 1}`, kind: 'audit_page' as const, group: audit.id, host: audit.host, url, seq: base + i + 1, createdAt: now() })));
      await db.audits.markPlanned(audit.id, { discovered: plan.found, planned: plan.urls.length, delayMs: plan.delayMs });
      await finish(claim, 'done', { found: plan.found, planned: plan.urls.length }, plan.delayMs);
      log.info({ audit: audit.id, host: audit.host, found: plan.found, planned: plan.urls.length, delayMs: plan.delayMs }, 'deep audit planned');
    } catch (err) {
      if (err instanceof LeaseLost) return void log.info({ audit: audit.id }, 'deep audit plan taken over by another instance');
      log.warn({ audit: audit.id, err: (err as Error).message }, 'deep audit plan failed');
      if (claim.row.attempts >= MAX_ATTEMPTS) await fail(`The plan could not be made: ${(err as Error).message.slice(0, 200)}`);
      else await db.queue.retryLater(claim, new Date(now().getTime() + config.CRAWL_DELAY_MS));
    }
  }

  async function runPage(claim: Leased<WorkItem>): Promise<void> {
    const audit = await auditOf(claim.row.group);
    const delay = audit?.delayMs ?? config.CRAWL_DELAY_MS;
    if (!audit || audit.status === 'done' || audit.status === 'failed') return void (await finish(claim, 'failed', null, delay));
    if (claim.row.attempts > MAX_ATTEMPTS) return void (await finish(claim, 'failed', unreadPage(claim.row.url, null, `given up after ${MAX_ATTEMPTS} attempts`), delay));
    // The request must end inside the lease, or another instance could take the host's turn while it is in flight:
    // a holder slowed down since its claim (a starved process) gives the item back instead of sending late.
    if (now().getTime() > claimedAt(claim) + ITEM_LEASE_MS - CRAWL_REQUEST_MS - LEASE_MARGIN_MS) {
      await db.queue.retryLater(claim, now());
      return;
    }
    const resource = await fetchOne(claim.row.url, { kind: 'html' }, { config, overrides: deps.overrides, signer: await deps.requestSigner?.() });
    const wait = retryAfterMs(resource, now());
    if (wait !== null && claim.row.attempts < MAX_ATTEMPTS) {
      log.info({ audit: audit.id, url: claim.row.url, status: resource.res?.status, waitMs: wait }, 'store asked to wait: pausing its host');
      await db.queue.retryLater(claim, new Date(now().getTime() + Math.max(wait, delay)));
      return;
    }
    let page: PageAudit;
    if (!resource.ok) page = unreadPage(claim.row.url, resource.res?.status ?? null, describeFailure(resource));
    else {
      const res = resource.res;
      const read = await reader.read({ kind: 'page', html: res.body, url: res.url, opts: { status: res.status, headers: res.headers }, recognise: true, structure: true });
      page = auditPage(resource, { page: read.page, product: read.product, recognised: read.recognition?.isProduct === true, structure: read.structure }, new URL(audit.url).origin);
    }
    await finish(claim, page.error === null ? 'done' : 'failed', page, delay);
  }

  async function runSeed(claim: Leased<WorkItem>): Promise<void> {
    const started = now();
    const outcome = await deps.runSeedScan(claim.row.url).catch((err: Error) => ({ error: err.message }));
    await finish(claim, 'scanId' in outcome ? 'done' : 'failed', { ...outcome, at: started.toISOString() }, config.CRAWL_DELAY_MS);
    log.info({ seed: claim.row.host, ...outcome }, 'seeded scan');
  }

  /** Ends a running audit whose pages are all done: one instance computes and stores its result. */
  async function finishAudit(audit: AuditRecord): Promise<void> {
    if ((await db.queue.counts(audit.id, now())).queued > 0) return;
    const claim = await db.audits.claimFinish(audit.id, now(), FINISH_LEASE_MS);
    if (!claim) return;
    const pages = await readPages(db, audit.id);
    const prev = await db.audits.previousAudit(audit.accountId, audit.host, audit.createdAt);
    const previous = prev?.result ? { id: prev.id, result: AuditResult.parse(JSON.parse(prev.result)), pages: await readPages(db, prev.id) } : null;
    const result = computeResult(pages, claim.row.discovered ?? pages.length, previous);
    const at = now();
    await queueAuditCompleted(db, audit, { status: 'done', result, error: null, at }, config.BASE_URL); // deduplicated: safe to repeat
    await db.audits.endAudit(claim, { status: 'done', at, result: JSON.stringify(result), error: null });
    audits.delete(audit.id);
    log.info({ audit: audit.id, host: audit.host, pages: result.pages_audited, findings: result.findings.length }, 'deep audit done');
  }

  /** Audits in progress: finish those with no page left; queue again a plan lost between an audit's start and its item. */
  async function sweep(): Promise<void> {
    const inProgress = await db.audits.auditsInProgress(100);
    for (const id of audits.keys()) if (!inProgress.some((a) => a.id === id)) audits.delete(id); // ended elsewhere
    for (const audit of inProgress) {
      if (audit.status === 'running') await finishAudit(audit);
      else if (now().getTime() - audit.createdAt.getTime() > 60_000) await db.queue.enqueue([planItem(audit)]);
    }
  }

  /** The instant a claim of one of the kinds may succeed next (ms), or null when none is queued. */
  async function soonestDue(kinds: WorkKind[]): Promise<number | null> {
    const next = await Promise.all(kinds.map((k) => db.queue.nextReadyAt(k, now(), k === 'seed_scan' ? SEED_RATE_KEY : undefined))).catch((): (Date | null)[] => []);
    const times = next.filter((d): d is Date => d !== null).map((d) => d.getTime());
    return times.length === 0 ? null : Math.min(...times);
  }

  const claimed = new WeakMap<Leased<WorkItem>, number>();
  const claimedAt = (claim: Leased<WorkItem>): number => claimed.get(claim) ?? now().getTime();

  let stopping = false;
  const slots = new Map<Promise<void>, 'audit' | 'seed'>();

  /** Claims items of the kinds in order of preference and handles them until nothing is claimable. */
  function openSlot(pool: 'audit' | 'seed', kinds: { kind: WorkKind; leaseMs: number; rate?: boolean; handle: (c: Leased<WorkItem>) => Promise<void> }[]): void {
    const slot = (async () => {
      while (!stopping) {
        let handled = false;
        for (const k of kinds) {
          const rate = k.rate ? { key: SEED_RATE_KEY, intervalMs: Math.ceil(60_000 / config.SEED_RATE_PER_MINUTE) } : undefined;
          const at = now();
          const claim = await db.queue.claim(k.kind, at, k.leaseMs, { polite, rate }).catch((err: Error) => {
            log.error({ err: err.message, kind: k.kind }, 'could not claim crawl work');
            return null;
          });
          if (!claim) continue;
          claimed.set(claim, at.getTime());
          try {
            await k.handle(claim);
          } catch (err) {
            log.error({ err: (err as Error).message, kind: k.kind, item: claim.row.id }, 'crawl work failed; its lease will run out and it is taken again');
          }
          handled = true;
          break;
        }
        if (handled) continue;
        // Nothing claimable now: wait for the host (or rate) due soonest when that is within a poll, else end.
        const due = await soonestDue(kinds.map((k) => k.kind));
        if (due === null || due - now().getTime() > config.CRAWL_POLL_MS) return;
        await sleep(Math.max(5, due - now().getTime()));
      }
    })().finally(() => slots.delete(slot));
    slots.set(slot, pool);
  }

  const auditKinds = [
    { kind: 'audit_plan' as const, leaseMs: ITEM_LEASE_MS, handle: runPlan },
    // An audit whose last page is done is finished by the next sweep (within CRAWL_POLL_MS), not checked after every page.
    { kind: 'audit_page' as const, leaseMs: ITEM_LEASE_MS, handle: runPage },
  ];
  const seedKinds = [{ kind: 'seed_scan' as const, leaseMs: seedLease, rate: true, handle: runSeed }];
  const busy = (pool: 'audit' | 'seed') => [...slots.values()].filter((p) => p === pool).length;
  let lastRequeue = 0;

  let auditWorkSeen = false;
  async function pass(): Promise<void> {
    await sweep();
    // The parser thread loads its readers as soon as audit work appears, so not inside the first plan's turn of a
    // store; an instance with none keeps no thread (it costs tens of MiB while it lives, and ends when idle).
    const auditWork = (await soonestDue(['audit_plan', 'audit_page'])) !== null;
    if (auditWork && !auditWorkSeen) void reader.read({ kind: 'sitemap', xml: '' }).catch(() => undefined);
    auditWorkSeen = auditWork;
    if (now().getTime() - lastRequeue > REQUEUE_EVERY_MS) {
      lastRequeue = now().getTime();
      await db.queue.requeueFinished(SEED_GROUP, new Date(now().getTime() - config.SEED_RESCAN_DAYS * 86_400_000));
    }
    // Slots that ended (nothing was claimable) are opened again; a busy slot keeps going on its own.
    for (let i = busy('audit'); i < config.CRAWL_WORKERS; i++) openSlot('audit', auditKinds);
    for (let i = busy('seed'); i < config.SEED_CONCURRENCY; i++) openSlot('seed', seedKinds);
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const schedule = async () => {
    if (stopping) return;
    const t = now().getTime();
    const soonest = Math.min(t + config.CRAWL_POLL_MS, (await soonestDue(['audit_page', 'audit_plan', 'seed_scan'])) ?? Infinity);
    timer = setTimeout(() => {
      running = pass()
        .catch((err: Error) => log.error({ err: err.message }, 'crawl pass failed'))
        .finally(() => void schedule());
    }, Math.max(20, soonest - t));
  };

  return {
    async tick() {
      await pass();
      while (slots.size > 0) await Promise.all([...slots.keys()]);
      await sweep();
    },
    start() {
      stopping = false;
      void schedule();
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
      while (slots.size > 0) await Promise.all([...slots.keys()]);
      await reader.close();
    },
  };
}
