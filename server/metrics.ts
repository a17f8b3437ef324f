// GET /metrics: the app's Prometheus registry, for the addresses METRICS_ALLOW names (loopback by default). The
// caller is judged by the connecting socket, never by X-Forwarded-For, so a forged header cannot open it; anyone
// else gets the ordinary not-found page, as if there were nothing here. Gauges of state held elsewhere (running
// and queued scans, the oldest pending webhook delivery) are read at scrape time.
import { Router } from 'express';
import ipaddr from 'ipaddr.js';
import type { Config } from '../lib/config.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import type { Repository } from '../db/repo.js';
import type { AppState } from '../tools/app-state.js';
import { seedStatus } from '../crawl/seed.js';

export function metricsRouter(deps: { config: Config; db: Repository; metrics: ServiceMetrics; state: AppState }): Router {
  const { metrics, db, config } = deps;
  metrics.onCollect(async () => {
    const load = deps.state.scanGate.load;
    metrics.scansRunning.set(load.running);
    metrics.scansQueued.set(load.waiting);
    // A store that cannot answer leaves the last figure; the store-error counter and /readyz say why.
    const oldest = await db.monitoring.oldestPendingDelivery().catch(() => undefined);
    if (oldest !== undefined) metrics.oldestPendingDeliverySeconds.set(oldest ? Math.max(0, Date.now() - oldest.getTime()) / 1000 : 0);

  });
  const allowed = metricsCallers(config.METRICS_ALLOW);
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    if (!allowed(req.socket.remoteAddress)) return next(); // on to the not-found page
    res.setHeader('Cache-Control', 'no-store');
    // Read before the registry serialises: prom-client reads every metric at once, so a value set by another
    // metric's collect() may come after this one was read.
    const seeds = await seedStatus(db, new Date()).catch(() => undefined);
    if (seeds) {
      for (const state of ['queued', 'done', 'failed'] as const) metrics.seedStores.set({ state }, seeds[state]);
      metrics.seedScansPerMinute.set(seeds.perMinute);
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseRange(value: string): Range {
  if (value.includes('/')) return ipaddr.parseCIDR(value);
  const address = ipaddr.parse(value);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** Whether a connection from a socket address may read /metrics, under METRICS_ALLOW's addresses and ranges. */
export function metricsCallers(allow: string[]): (remote: string | undefined) => boolean {
  const ranges = allow.map(parseRange);
  return (remote) => {
    if (!remote || !ipaddr.isValid(remote)) return false;
    // An IPv4 caller on a dual-stack socket shows as ::ffff:a.b.c.d: compare it as IPv4.
    const parsed = ipaddr.process(remote);
    return ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
  };
}
