// The monitoring loop every instance runs (unless MONITOR=off): due monitor scans, the fan-out of saved scans'
// events to webhook deliveries, and the deliveries themselves. All work is claimed from the store with a lease,
// so instances polling together never take one row twice, and a crashed instance's work is taken again once
// its lease runs out. The scan itself is injected by the composition root (this layer does not know the tools).
// Deliveries run in a pool of slots that outlives a poll, so a slow receiver holds one slot, never the next
// poll; the store hands them out fairly (one in flight per endpoint, a cap per account) and the circuit breaker
// stops sending to an endpoint that keeps timing out.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../lib/config.js';
import type { Delivery, DeliveryNext, Leased, Monitor, NewDelivery, OwnershipClaim, ScanEventRow, WebhookEndpoint } from '../db/monitoring-repo.js';
import type { Repository } from '../db/repo.js';
import type { LookupFunction } from '../outbound/fetch.js';
import { sendWebhook } from './delivery.js';
import { BREAKER_TIMEOUTS, circuitOpenUntil } from './circuit-breaker.js';
import { signingSecrets } from './endpoints.js';
import { eventsForScan } from './events.js';
import { nextRunAfter } from './monitors.js';
import { recheckOwnership } from './ownership.js';
import type { SecretBox } from './secrets.js';
import type { ServiceMetrics } from '../lib/metrics.js';

/** Runs one scheduled scan with the account's quota: the stored scan's id, or why it was skipped. */
export type MonitorScan = (target: { origin: string; host: string; accountId: string }) => Promise<{ scanId: number } | { skipped: string }>;
/** Mails an account's owner (the console's mailer). */
export type SendMail = (message: { accountId: string; subject: string; text: string }) => Promise<void>;

export const FAILING_DISABLE_MS = 5 * 86_400_000;
const FAN_OUT_LEASE_MS = 60_000;
/** Deliveries in flight at once per instance: with two per account at most, no fewer than eight accounts fill them. */
export const DELIVERY_SLOTS = 16;
const MONITOR_CONCURRENCY = 2;
/** Every verified claim is checked again this long after its last check, monitored or not (docs/decisions.md). */
export const OWNERSHIP_RECHECK_MS = 86_400_000;

export interface WorkerDeps {
  db: Repository;
  config: Config;
  log: Logger;
  box: SecretBox;
  runScan: MonitorScan;
  sendMail: SendMail;
  now?: () => Date;
  /** Webhook attempts by outcome and monitor lag are counted here when given. */
  metrics?: ServiceMetrics;
  /** Test seams for deliveries, as for scans. */
  lookup?: LookupFunction;
  allowIPAddressList?: string[];
}

export interface TickCounts {
  monitors: number;
  events: number;
  attempts: number;
}

export interface MonitoringWorker {
  /** One pass over everything due now; resolves when it is done. */
  tick(): Promise<TickCounts>;
  /** Polls now instead of at the next interval (a test event was queued); a pass already running polls once more after. */
  wake(): void;
  start(): void;
  stop(): Promise<void>;
}

export function createMonitoringWorker(deps: WorkerDeps): MonitoringWorker {
  const { db, config, log } = deps;
  const repo = db.monitoring;
  const now = deps.now ?? (() => new Date());
  const deliveryLeaseMs = config.WEBHOOK_TIMEOUT_MS + 30_000;
  const monitorLeaseMs = 2 * config.SCAN_TIMEOUT_MS + 60_000;

  async function runMonitor(claim: Leased<Monitor>): Promise<void> {
    const m = claim.row;
    const started = now();
    deps.metrics?.monitorLagSeconds.observe(Math.max(0, started.getTime() - m.nextRunAt.getTime()) / 1000);
    let outcome: string;
    let scanId: number | null = null;
    try {
      const owner = await repo.getClaim(m.accountId, m.host);
      const ownership = owner?.verifiedAt
        ? await recheckOwnership({ db, config, lookup: deps.lookup, allowIPAddressList: deps.allowIPAddressList }, owner)
        : 'withdrawn';
      if (ownership === 'withdrawn') outcome = 'skipped: the verification token is no longer on the site; verify the store again';
      else {
        const result = await deps.runScan({ origin: m.origin, host: m.host, accountId: m.accountId });
        if ('skipped' in result) outcome = `skipped: ${result.skipped}`;
        else {
          scanId = result.scanId;
          outcome = 'scanned';
        }
      }
    } catch (err) {
      outcome = `failed: ${(err as Error).message}`.slice(0, 300);
    }
    const finished = await repo.finishMonitorRun(claim, { nextRunAt: nextRunAfter(m.cadence, started), at: started, outcome, scanId });
    log.info({ monitor: m.id, host: m.host, outcome, scanId, leaseKept: finished }, 'monitor run');
  }

  // A site that answers without the token ends the claim's verification; one that cannot be read keeps it.
  async function recheck(claim: OwnershipClaim): Promise<void> {
    const outcome = await recheckOwnership({ db, config, lookup: deps.lookup, allowIPAddressList: deps.allowIPAddressList }, claim);
    log.info({ account: claim.accountId, host: claim.host, outcome }, 'ownership re-check');
  }

  async function fanOut(claim: Leased<ScanEventRow>): Promise<void> {
    const { scanId, host } = claim.row;
    const deliveries: NewDelivery[] = [];
    const endpoints = await repo.endpointsForHost(host);
    const scan = endpoints.length > 0 ? await db.getScan(scanId) : null;
    if (scan) {
      const previousId = await repo.previousScanId(host, scanId);
      const previous = previousId === null ? null : await db.getScan(previousId);
      const at = now();
      for (const event of eventsForScan(scan, previous, `${config.BASE_URL}/r/${scanId}`)) {
        for (const endpoint of endpoints) {
          if (!endpoint.events.includes(event.type)) continue;
          deliveries.push({
            id: randomUUID(),
            dedupeKey: `${endpoint.id}:${event.messageId}`,
            endpointId: endpoint.id,
            messageId: event.messageId,
            eventType: event.type,
            payload: event.body,
            nextAttemptAt: at,
            createdAt: at,
          });
        }
      }
    }
    await repo.completeScanEvent(claim, deliveries);
  }

  async function updateEndpoint(id: string, change: (e: WebhookEndpoint) => WebhookEndpoint | null): Promise<WebhookEndpoint | null> {
    const fresh = await repo.getEndpoint(id); // read again: another instance may have changed it meanwhile
    const next = fresh && change(fresh);
    if (next) await repo.updateEndpoint(next);
    return next;
  }

  async function disable(endpoint: WebhookEndpoint, reason: string, at: Date): Promise<void> {
    const disabled = await updateEndpoint(endpoint.id, (e) => (e.disabledAt ? null : { ...e, disabledAt: at, disabledReason: reason }));
    if (!disabled) return;
    log.warn({ endpoint: endpoint.id, reason }, 'webhook endpoint disabled');
    await deps
      .sendMail({
        accountId: endpoint.accountId,
        subject: 'A store-readiness webhook endpoint was disabled',
        text: `We stopped sending events to ${endpoint.url}: ${reason}.\nFix the receiver, then turn the endpoint on again in the console.`,
      })
      .catch((err: Error) => log.error({ err: err.message, endpoint: endpoint.id }, 'could not mail the owner'));
  }

  async function deliver(claim: Leased<Delivery>): Promise<void> {
    const d = claim.row;
    const at = now();
    const attempt = d.attempts + 1;
    const endpoint = await repo.getEndpoint(d.endpointId);
    const base = { endpointId: d.endpointId, deliveryId: d.id, messageId: d.messageId, eventType: d.eventType, attempt, at };
    if (!endpoint || endpoint.disabledAt) {
      await repo.recordAttempt(claim, { ...base, status: null, outcome: 'not sent: endpoint disabled or removed', durationMs: 0 }, { state: 'cancelled' });
      deps.metrics?.webhookAttempts.inc({ outcome: 'not_sent' });
      return;
    }
    const pausedUntil = circuitOpenUntil(await repo.listAttempts(endpoint.id, BREAKER_TIMEOUTS), at);
    if (pausedUntil) {
      // Not an attempt: the message waits, its retries untouched, until the pause ends and one probe goes out.
      await repo.postponeDelivery(claim, pausedUntil);
      log.info({ delivery: d.id, endpoint: d.endpointId, until: pausedUntil.toISOString() }, 'webhook endpoint paused: it keeps timing out');
      return;
    }
    const result = await sendWebhook(
      endpoint.url,
      { id: d.messageId, body: d.payload },
      signingSecrets(endpoint, deps.box, at),
      at,
      { config, lookup: deps.lookup, allowIPAddressList: deps.allowIPAddressList },
    );
    const delay = config.WEBHOOK_RETRY_SCHEDULE[attempt - 1];
    const next: DeliveryNext = result.ok
      ? { state: 'delivered' }
      : !result.gone && delay !== undefined
        ? { state: 'pending', nextAttemptAt: new Date(at.getTime() + delay) }
        : { state: 'failed' };
    const recorded = await repo.recordAttempt(claim, { ...base, status: result.status, outcome: result.outcome, durationMs: result.durationMs }, next);
    log.info({ delivery: d.id, endpoint: d.endpointId, attempt, status: result.status, outcome: result.outcome, recorded }, 'webhook attempt');
    deps.metrics?.webhookAttempts.inc({ outcome: next.state === 'pending' ? 'retrying' : next.state });
    if (result.ok) {
      if (endpoint.failingSince) await updateEndpoint(endpoint.id, (e) => ({ ...e, failingSince: null }));
    } else if (result.gone) {
      await disable(endpoint, 'the receiver answered 410 Gone', at);
    } else {
      const since = endpoint.failingSince ?? at;
      if (at.getTime() - since.getTime() >= FAILING_DISABLE_MS) await disable(endpoint, 'every delivery failed for five days', at);
      else if (!endpoint.failingSince) await updateEndpoint(endpoint.id, (e) => (e.failingSince ? null : { ...e, failingSince: at }));
    }
  }

  let stopped = true;

  /** Claims and handles rows until none is due (or the worker stops), with `workers` claims in flight at most. */
  async function drain<T>(workers: number, claim: () => Promise<T | null>, handle: (row: T) => Promise<void>): Promise<number> {
    let handled = 0;
    const loop = async () => {
      for (;;) {
        if (stopping) return; // what is claimed is finished; the rest waits for another pass or instance
        const row = await claim();
        if (!row) return;
        await handleSafely(row, handle);
        handled++;
      }
    };
    await Promise.all(Array.from({ length: workers }, loop));
    return handled;
  }

  async function handleSafely<T>(row: T, handle: (row: T) => Promise<void>): Promise<void> {
    try {
      await handle(row);
    } catch (err) {
      log.error({ err: (err as Error).message }, 'monitoring work failed; its lease will expire and it is retried');
    }
  }

  // The delivery pool: a slot that claims a delivery first opens the next slot (while slots are free), so an
  // idle poll costs one claim and a busy one fills the slots; each slot ends when nothing is claimable.
  const slots = new Set<Promise<void>>();
  let attemptsMade = 0;
  function openDeliverySlot(): void {
    if (stopping || slots.size >= DELIVERY_SLOTS) return;
    const slot = (async () => {
      for (;;) {
        if (stopping) return;
        const claim = await repo.claimDueDelivery(now(), deliveryLeaseMs).catch((err: Error) => {
          log.error({ err: err.message }, 'could not claim a webhook delivery');
          return null;
        });
        if (!claim) return;
        openDeliverySlot();
        await handleSafely(claim, deliver);
        attemptsMade++;
      }
    })().finally(() => slots.delete(slot));
    slots.add(slot);
  }

  /** Monitors and fan-out of one poll; deliveries are started in the pool and not waited for. */
  const poll = async (): Promise<{ monitors: number; events: number }> => {
    const monitorsDone = drain(MONITOR_CONCURRENCY, () => repo.claimDueMonitor(now(), monitorLeaseMs), runMonitor);
    const events = await drain(1, () => repo.claimScanEvent(now(), FAN_OUT_LEASE_MS), fanOut);
    openDeliverySlot();
    const monitors = await monitorsDone;
    await drain(1, () => repo.claimDueRecheck(now(), new Date(now().getTime() - OWNERSHIP_RECHECK_MS)), recheck);
    // Scans run by monitors just now queued events: send them in the same pass rather than a poll later.
    const moreEvents = monitors > 0 ? await drain(1, () => repo.claimScanEvent(now(), FAN_OUT_LEASE_MS), fanOut) : 0;
    if (moreEvents > 0) openDeliverySlot();
    return { monitors, events: events + moreEvents };
  };

  /** Waits until the pool is empty (slots opened meanwhile included). */
  const settle = async () => {
    while (slots.size > 0) await Promise.all([...slots]);
  };

  const tick = async (): Promise<TickCounts> => {
    const before = attemptsMade;
    const { monitors, events } = await poll();
    await settle();
    return { monitors, events, attempts: attemptsMade - before };
  };

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopping = false;
  let passing = false;
  let again = false;
  const pass = () => {
    passing = true;
    running = poll()
      .catch((err: Error) => log.error({ err: err.message }, 'monitoring pass failed'))
      .finally(() => {
        passing = false;
        if (again && !stopped) {
          again = false;
          pass();
        } else schedule();
      });
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(pass, config.MONITOR_POLL_MS);
  };

  return {
    tick,
    wake() {
      if (stopped) return;
      if (passing) return void (again = true);
      if (timer) clearTimeout(timer);
      pass();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      schedule();
    },
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
      await settle();
    },
  };
}
