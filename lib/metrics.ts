// The service's Prometheus metrics (prom-client), one registry per app so that two apps in one process (tests)
// never count into each other. Counters and histograms are bumped where the work happens; gauges of state that
// lives elsewhere (running scans, the oldest pending delivery) are read when scraped, through `onCollect`.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isDatabaseUnavailable } from './db-failure.js';

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Scans by outcome ("ok" or the error code) and their wall time. */
  readonly scans: Counter<'outcome'>;
  readonly scanSeconds: Histogram<'outcome'>;
  readonly scansRunning: Gauge;
  readonly scansQueued: Gauge;
  /** Scan calls refused with 503 SCANNER_BUSY. */
  readonly scannerBusy: Counter;
  /** Webhook attempts by outcome: delivered, retrying, failed (no retry left or gone), not_sent. */
  readonly webhookAttempts: Counter<'outcome'>;
  readonly oldestPendingDeliverySeconds: Gauge;
  /** How late a monitor's scan started after it was due. */
  readonly monitorLagSeconds: Histogram;
  /** Browser renders by outcome (rendered, budget: a budget ran out, failed: the browser could not be used), their wall time, and how many run now. */
  readonly renders: Counter<'outcome'>;
  readonly renderSeconds: Histogram<'outcome'>;
  readonly rendersRunning: Gauge;
  /** Store errors by class: "unavailable" (a 503 the caller may retry) or "other" (a 500), with the store's code. */
  readonly storeErrors: Counter<'class' | 'code'>;
  /** Background crawl items finished by this instance, by kind (audit_plan, audit_page, seed_scan) and outcome (done, failed). */
  readonly crawlItems: Counter<'kind' | 'outcome'>;
  /** Seeded stores by state (queued, done, failed), across all instances, and seeded scans a minute over the last hour. */
  readonly seedStores: Gauge<'state'>;
  readonly seedScansPerMinute: Gauge;
  /** Registers a function run before each scrape, to set gauges from state kept elsewhere. */
  onCollect(read: () => void | Promise<void>): void;
}

export function createMetrics(): ServiceMetrics {
  const registry = new Registry();
  // Process defaults: CPU, memory, handles, GC, and the event-loop lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });
  const readers: (() => void | Promise<void>)[] = [];
  const registers = [registry];
  const scansRunning = new Gauge({
    name: 'store_readiness_scans_running',
    help: 'Scans running now on this instance.',
    registers,
    async collect() {
      for (const read of readers) await read();
    },
  });
  return {
    registry,
    scans: new Counter({ name: 'store_readiness_scans_total', help: 'Scans finished, by outcome (ok or the error code).', labelNames: ['outcome'], registers }),
    scanSeconds: new Histogram({
      name: 'store_readiness_scan_duration_seconds',
      help: 'Wall time of a scan, by outcome.',
      labelNames: ['outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600],
      registers,
    }),
    scansRunning,
    scansQueued: new Gauge({ name: 'store_readiness_scans_queued', help: 'Scan calls holding a queue place, waiting to run.', registers }),
    scannerBusy: new Counter({ name: 'store_readiness_scanner_busy_total', help: 'Scan calls refused with 503 SCANNER_BUSY.', registers }),
    webhookAttempts: new Counter({ name: 'store_readiness_webhook_attempts_total', help: 'Webhook delivery attempts, by outcome.', labelNames: ['outcome'], registers }),
    oldestPendingDeliverySeconds: new Gauge({
      name: 'store_readiness_webhook_oldest_pending_seconds',
      help: 'Age of the oldest webhook delivery not yet delivered or given up (0 when none).',
      registers,
    }),
    monitorLagSeconds: new Histogram({
      name: 'store_readiness_monitor_lag_seconds',
      help: 'How late a scheduled monitor scan started after it was due.',
      buckets: [1, 5, 15, 30, 60, 300, 900, 3600],
      registers,
    }),
    renders: new Counter({ name: 'store_readiness_renders_total', help: 'Browser renders of a scan, by outcome.', labelNames: ['outcome'], registers }),
    renderSeconds: new Histogram({
      name: 'store_readiness_render_duration_seconds',
      help: 'Wall time of a browser render (waiting for a place included), by outcome.',
      labelNames: ['outcome'],
      buckets: [0.5, 1, 2.5, 5, 10, 15, 30, 60],
      registers,
    }),
    rendersRunning: new Gauge({ name: 'store_readiness_renders_running', help: 'Browser renders running or waiting for a place.', registers }),
    storeErrors: new Counter({ name: 'store_readiness_store_errors_total', help: 'Errors of the store, by class and code.', labelNames: ['class', 'code'], registers }),
    crawlItems: new Counter({ name: 'store_readiness_crawl_items_total', help: 'Background crawl items finished here, by kind and outcome.', labelNames: ['kind', 'outcome'], registers }),
    seedStores: new Gauge({ name: 'store_readiness_seed_stores', help: 'Seeded stores by state of their latest round (queued, done, failed), all instances.', labelNames: ['state'], registers }),
    seedScansPerMinute: new Gauge({ name: 'store_readiness_seed_scans_per_minute', help: 'Seeded scans finished per minute over the last hour, all instances.', registers }),
    onCollect: (read) => void readers.push(read),
  };
}

/** Counts one store error: "unavailable" when a retry may help, else "other"; the driver's code as it gave it. */
export function countDatabaseError(metrics: ServiceMetrics | undefined, err: unknown): void {
  metrics?.storeErrors.inc({ class: isDatabaseUnavailable(err) ? 'unavailable' : 'other', code: storeErrorCode(err) ?? 'none' });
}

/** The store's own error code (SQLITE_FULL, a MongoDB server code), for logs and metrics. */
export function storeErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown; codeName?: unknown } | null)?.code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return undefined;
}
