// scan_store: audits a store now and records the result in the readiness index (GET /api/v1/scan; docs/architecture.md
// "A scan"). Story: normalise → scan → rank → save → shape. Nothing is stored unless the scan completed.
// Calls for one store that arrive while its scan runs share that scan (single-flight): one scan, one stored
// row, the same answer for each caller.
import { z } from 'zod';
import { runScan } from '../scan/index.js';
import { normaliseScanUrl, targetRefusal } from '../scan/url.js';
import { hostIdentity } from '../lib/hosts.js';
import { AppError } from '../lib/errors.js';
import { StoreUrl, Vertical } from '../schemas/params.js';
import { ScanResult } from '../schemas/scan-result.js';
import type { LatestEntry, RankWindow, StoreRepo } from '../store/repo.js';
import { reportUrl } from './readiness.js';
import { SingleFlight } from './single-flight.js';
import { defineTool, type ToolContext } from './tool.js';

/** docs/checks.md §9: the checks an agent needs to quote and buy. */
const READY_CHECKS = ['product_price', 'product_availability', 'access_live_agents_robots'];

export const scanStore = defineTool({
  name: 'scan_store',
  title: 'Scan a store for agent-readiness',
  description:
    "Audits an e-commerce store now, the way an AI shopping agent would see it, and returns its 0–100 score, grade A–E, every check per pillar, the prioritised fixes, what agents read from its product pages, and its neighbours in the readiness index. Takes up to about 30 seconds. Meant for the merchant's own store; to look up an already scanned store, use check_merchant_readiness instead.",
  input: z.object({ url: StoreUrl, vertical: Vertical.optional() }),
  output: ScanResult,
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true, destructiveHint: false },
  expose: ['functions'],
  preflight({ url }, ctx) {
    scanTarget(url, ctx);
  },
  async handler({ url, vertical }, ctx) {
    // The vertical changes the answer (kept vertical, neighbours), so it is part of what is shared.
    const key = `${hostIdentity(scanTarget(url, ctx))} ${vertical ?? ''}`;
    return flightsOf(ctx.store).run(key, ctx.signal, (signal) => scanAndSave(url, vertical, { ...ctx, signal }));
  },
});

/** One set of running scans per store, so two apps in one process (tests) never answer from each other's. */
const flights = new WeakMap<StoreRepo, SingleFlight<ScanResult>>();

function flightsOf(store: StoreRepo): SingleFlight<ScanResult> {
  let running = flights.get(store);
  if (!running) flights.set(store, (running = new SingleFlight<ScanResult>()));
  return running;
}

/**
 * The target as runScan will judge it (the same functions, the same test allow-list rule): a refused target is
 * refused before any quota is counted; runScan judges it again, and every redirect hop after it.
 */
function scanTarget(url: string, { config, scanOverrides }: Pick<ToolContext, 'config' | 'scanOverrides'>): URL {
  const allowList = scanOverrides?.allowIPAddressList;
  if (config.SCAN_ALLOW_PRIVATE || !allowList?.length) return normaliseScanUrl(url, { allowPrivate: config.SCAN_ALLOW_PRIVATE });
  const target = normaliseScanUrl(url, { allowPrivate: true });
  const why = targetRefusal(target, { allowPrivate: false, allowedPorts: 'any', allowIPAddressList: allowList });
  if (why) throw new AppError('INVALID_URL', `${why}.`);
  return target;
}

async function scanAndSave(url: string, vertical: ScanResult['vertical'] | undefined, ctx: ToolContext): Promise<ScanResult> {
  const { config, store } = ctx;
  const audit = await runScan(url, {
    allowPrivate: config.SCAN_ALLOW_PRIVATE,
    maxRequests: config.SCAN_MAX_REQUESTS,
    timeoutMs: config.SCAN_TIMEOUT_MS,
    baseUrl: config.BASE_URL,
    signal: ctx.signal,
    log: ctx.log,
    ...(ctx.scanOverrides as object | undefined),
  });

  const previous = await store.latestByHost(audit.host);
  const keptVertical = vertical ?? previous?.vertical ?? null;
  const id = await store.allocateScanId();
  const window = await store.rankWindow(audit.host, {
    vertical: vertical ?? null,
    asIf: { score: audit.score, grade: audit.grade },
  });
  const result: ScanResult = {
    scan_id: id,
    report_url: reportUrl(config.BASE_URL, id),
    vertical: keptVertical,
    neighbors: neighborsOf(window, audit.host),
    ...audit,
  };
  const passing = new Set(result.pillars.flatMap((p) => p.checks.filter((c) => c.status === 'pass').map((c) => c.id)));
  await store.saveScan({
    id,
    host: audit.host,
    vertical: keptVertical,
    score: audit.score,
    grade: audit.grade,
    capped: audit.capped,
    agentReady: !audit.capped && audit.score >= 70 && READY_CHECKS.every((c) => passing.has(c)),
    createdAt: new Date(audit.scanned_at),
    ownerKeyId: ctx.caller.keyId,
    ownerAccountId: ctx.caller.accountId ?? null,
    report: result,
    events: true, // webhook events of the hosts' verified owners, queued in the same store step
  });
  return result;
}

function neighborsOf(window: RankWindow | null, host: string): ScanResult['neighbors'] {
  return (window?.rows ?? []).map((row: LatestEntry & { rank: number }) => ({
    rank: row.rank,
    host: row.host,
    score: row.score,
    grade: row.grade as ScanResult['grade'],
    is_self: row.host === host,
  }));
}
