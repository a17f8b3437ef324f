// runScan: one audit of one store, from a raw URL to a scored AuditResult (docs/architecture.md "A scan", step 4).
// No storage, no HTTP server: used by the scan_store tool and by the CLI. Only a homepage that cannot be had at
// all fails the scan (SCAN_TIMEOUT, STORE_UNREACHABLE, INVALID_URL); every other failure is a scored finding.
import { performance } from 'node:perf_hooks';
import type { AuditResult } from '../schemas/scan-result.js';
import { AppError } from '../lib/errors.js';
import type { ProductFacts, Resource } from './artifacts.js';
import { browserView, notRun } from './browser-view.js';
import { planJourney } from './buying-journey.js';
import type { JourneyBoard } from './journey/board.js';
import type { Journey } from '../schemas/journey.js';
import { createFetcher, type Fetcher, type LookupFunction } from '../outbound/fetch.js';
import type { RequestSigner } from '../outbound/request-signer.js';
import { gather, homeUnusable, HTML_ACCEPT } from './fetching/gather.js';
import { readInPool, warmPagePool, type BodyReader } from './parser-threads/page-pool.js';
import { RUBRIC_VERSION } from './checks/rubric.js';
import { protocolFlags } from './protocols.js';
import type { PageRenderer } from './fetching/render.js';
import { runChecksInTurns } from './checks/registry.js';
import { score } from './checks/score.js';
import { findRootCauses } from './checks/root-causes.js';
import { hasExplicitScheme, normaliseScanTarget } from '../outbound/url.js';
import { hostIdentity } from '../lib/hosts.js';
import { isPublicEntry } from '../lib/public-entry.js';
import { MATRIX_CONCURRENCY, MATRIX_REQUEST_TIMEOUT_MS, MATRIX_TIME_MS } from './fetching/agents-matrix.js';
import { agentsReport } from './agents/report.js';

export interface ScanLogger {
  warn(obj: unknown, msg?: string): void;
}

export interface ScanOptions {
  allowPrivate: boolean; // SCAN_ALLOW_PRIVATE
  maxRequests: number; // SCAN_MAX_REQUESTS
  timeoutMs: number; // SCAN_TIMEOUT_MS: the whole scan, homepage included
  baseUrl: string; // BASE_URL, named in the scanner's user agents
  signal?: AbortSignal; // the caller went away
  lookup?: LookupFunction; // injected DNS (tests)
  allowIPAddressList?: string[]; // tests: allow exactly these addresses, judge everything else as in production
  allowedPorts?: number[] | 'any';
  requestTimeoutMs?: number;
  log?: ScanLogger;
  /** Where pages and sitemaps are parsed; default the shared worker pool, so the event loop stays free. */
  read?: BodyReader;
  /** The browser for "what browser agents see"; without one the view says it was not run. */
  render?: PageRenderer;
  /** Wall time of the render (default 15 s), within what is left of timeoutMs. */
  renderTimeoutMs?: number;
  /** Wall time of the buying journey after the render (default 15 s; 0 = off), within what is left of timeoutMs. */
  journeyTimeoutMs?: number;
  /** The app's recent walks, so a store is walked once at a time and not again for 10 minutes. */
  journeys?: JourneyBoard;
  /** The host's latest stored journey (another instance may have walked it). */
  storedJourney?: () => Promise<Journey | null | undefined>;
  /** Signs the scan's requests (Web Bot Auth); none when SIGN_REQUESTS is off or there is no key (the command line). */
  signer?: RequestSigner;
  /** The agents matrix's own request cap (AGENTS_MAX_REQUESTS) on a scan of a store's root; 0 or absent: not run. */
  agentsMaxRequests?: number;
  /** The address was typed without a scheme: https is tried first, then plain http when https gives no answer. */
  schemeGuessed?: boolean;
}

/** Less time than this left in the scan, and the browser is not started: a render needs a few seconds at least. */
const MIN_RENDER_MS = 3000;
/** Kept back from the scan's time after the journey: ranking and saving the result. */
const SAVE_MARGIN_MS = 1000;
/** The catalog's requests (scan/journey/catalog.ts): at most three, each this long at most. */
const CATALOG = { maxRequests: 3, requestTimeoutMs: 5000, deadlineMs: 12_000, maxTotalBytes: 2 * 1024 * 1024 };

export async function runScan(rawUrl: string, opts: ScanOptions): Promise<AuditResult> {
  return (await auditStore(rawUrl, opts)).audit;
}

/**
 * runScan, plus where the homepage ended after redirects (which site answered: lib/public-entry.ts). A URL object
 * is a target already normalised by normaliseScanTarget (the scan tool does so before it counts the call).
 */
export async function auditStore(target: string | URL, opts: ScanOptions): Promise<{ audit: AuditResult; homeUrl: string | null }> {
  throwIfAborted(opts.signal);
  let url = typeof target === 'string' ? normaliseScanTarget(target, opts) : new URL(target.href);
  const schemeGuessed = opts.schemeGuessed ?? (typeof target === 'string' && !hasExplicitScheme(target));
  if (!opts.read) await warmPagePool(); // before the deadline starts: a cold pool is not the store's slowness
  throwIfAborted(opts.signal);
  const started = performance.now();
  const scannedAt = new Date();
  const fetcher = createFetcher({
    allowPrivate: opts.allowPrivate,
    allowIPAddressList: opts.allowIPAddressList,
    allowedPorts: opts.allowedPorts ?? (opts.allowIPAddressList?.length && !opts.allowPrivate ? 'any' : undefined),
    maxRequests: opts.maxRequests,
    deadlineMs: opts.timeoutMs,
    requestTimeoutMs: requestTimeout(opts),
    signal: opts.signal,
    lookup: opts.lookup,
    baseUrl: opts.baseUrl,
    log: opts.log,
    signer: opts.signer,
  });

  // No scheme typed: https first; a server that gives no answer over https (a plain-HTTP server, a closed port 443)
  // is scanned over http, and the result says so.
  let home: Resource | undefined;
  let addressNote: string | null = null;
  if (schemeGuessed && url.protocol === 'https:') {
    home = await fetcher.fetch(url.href, { kind: 'html', accept: HTML_ACCEPT });
    if (!home.res && !home.ok && home.reason !== 'timeout' && home.reason !== 'blocked') {
      const plain = new URL(url.href);
      plain.protocol = 'http:';
      addressNote = `No scheme was given and ${url.href} did not answer over HTTPS (${home.detail.slice(0, 80)}), so ${plain.href} was scanned: the store answers in plain HTTP.`;
      url = plain;
      home = undefined;
    }
  }
  const agents = agentsOf(url, opts);
  const artifacts = await gather(url, fetcher, {
    baseUrl: opts.baseUrl,
    maxRequests: opts.maxRequests,
    read: opts.read ?? readInPool,
    agents,
    home,
  }).finally(() => agents?.fetcher.close());
  throwIfAborted(opts.signal);
  assertHomeUsable(artifacts.home, fetcher.deadlineHit, opts);

  const { results, causes } = findRootCauses(
    await runChecksInTurns(artifacts, (id, err) => opts.log?.warn({ check: id, err: err instanceof Error ? err.message : String(err) }, 'check threw; scored as fail')),
    artifacts,
  );
  const scored = score(results, causes);
  // The fetcher's ports (see createFetcher above), for the browser's requests.
  const allowedPorts = opts.allowedPorts ?? (opts.allowPrivate || opts.allowIPAddressList?.length ? 'any' : [80, 443]);
  const rules = { allowPrivate: opts.allowPrivate, allowIPAddressList: opts.allowIPAddressList, allowedPorts, lookup: opts.lookup, log: opts.log };
  const left = () => opts.timeoutMs - (performance.now() - started);
  const renderMs = Math.min(opts.renderTimeoutMs ?? 15_000, left());
  const catalogFetchers: Fetcher[] = [];
  const journeyPlan = await planJourney(artifacts, url, {
    timeoutMs: opts.journeyTimeoutMs ?? 15_000,
    browser: !opts.render
      ? 'Not run: this instance has no browser (Chromium), so no agent walked the store to its checkout.'
      : renderMs < MIN_RENDER_MS
        ? 'Not run: the scan had used up its time before the browser could start.'
        : true,
    board: opts.journeys,
    stored: opts.storedJourney,
    waitMs: left() - SAVE_MARGIN_MS,
    catalogFetcher: () => {
      const fetcher = createFetcher({ ...rules, ...CATALOG, deadlineMs: Math.max(1, Math.round(Math.min(CATALOG.deadlineMs, left()))), signal: opts.signal, baseUrl: opts.baseUrl, signer: opts.signer });
      catalogFetchers.push(fetcher);
      return fetcher;
    },
  });
  const journeyRequest = journeyPlan.request && { ...journeyPlan.request, maxMs: opts.journeyTimeoutMs ?? 15_000, endsInMs: left() - SAVE_MARGIN_MS };
  let rendered: Awaited<ReturnType<typeof browserView>>;
  let journey: Journey;
  try {
    rendered =
      opts.render && renderMs < MIN_RENDER_MS
        ? { view: notRun('Not run: the scan had used up its time before the browser could start.'), run: null }
        : await browserView(artifacts, opts.render, { rules, baseUrl: opts.baseUrl, deadlineMs: renderMs, signal: opts.signal, journey: journeyRequest }, opts.read ?? readInPool);
    journey = await journeyPlan.finish(rendered.run, opts.render?.label ?? 'a browser');
  } finally {
    journeyPlan.abandon(); // after finish, nothing; after an error, later scans of the store walk again
  }
  const browser_view = rendered.view;
  throwIfAborted(opts.signal);
  const audit: AuditResult = {
    host: hostIdentity(url),
    url: url.href,
    scanned_at: scannedAt.toISOString(),
    rubric_version: RUBRIC_VERSION,
    score: scored.score,
    grade: scored.grade,
    capped: scored.capped,
    cap_reason: scored.cap_reason,
    pillars: scored.pillars,
    top_fixes: scored.top_fixes,
    root_causes: scored.root_causes,
    protocols: protocolFlags(artifacts, results),
    products: artifacts.pdps.flatMap((p) => (p.product ? [productSeen(p.product)] : [])),
    fetched: [...artifacts.fetchLog, ...catalogFetchers.flatMap((f) => f.log)].map((e) => ({ url: e.url, status: e.status, ms: Math.max(0, Math.round(e.ms)), outcome: e.outcome })),
    duration_ms: Math.max(0, Math.round(performance.now() - started)),
    browser_view,
    journey,
    agents: agentsReport({ matrix: artifacts.agentMatrix, browserView: browser_view, signer: opts.signer, notRun: agentsNotRunNote(url, opts), baseUrl: opts.baseUrl }),
    ...(addressNote ? { address_note: addressNote } : {}),
  };
  return { audit, homeUrl: artifacts.home.res?.url ?? null };
}

/**
 * The agents matrix's fetcher, on a scan of a store's root when the instance allows it: its own request cap, two in
 * flight on two kept-alive connections, MATRIX_TIME_MS of the scan's deadline, the same address rules. Its requests
 * are never signed.
 */
function agentsOf(url: URL, opts: ScanOptions): { fetcher: ReturnType<typeof createFetcher>; maxRequests: number; signed: boolean } | undefined {
  if (agentsNotRunNote(url, opts) !== null) return undefined;
  const maxRequests = opts.agentsMaxRequests ?? 0;
  const fetcher = createFetcher({
    allowPrivate: opts.allowPrivate,
    allowIPAddressList: opts.allowIPAddressList,
    allowedPorts: opts.allowedPorts ?? (opts.allowIPAddressList?.length && !opts.allowPrivate ? 'any' : undefined),
    maxRequests,
    deadlineMs: Math.min(opts.timeoutMs, MATRIX_TIME_MS),
    requestTimeoutMs: Math.min(requestTimeout(opts), MATRIX_REQUEST_TIMEOUT_MS),
    concurrency: MATRIX_CONCURRENCY,
    keepAlive: true, // many requests to one host: two connections, not one per request
    signal: opts.signal,
    lookup: opts.lookup,
    baseUrl: opts.baseUrl,
    log: opts.log,
  });
  return { fetcher, maxRequests, signed: opts.signer !== undefined };
}

/** Why this scan runs no agents matrix, or null when it runs one. */
function agentsNotRunNote(url: URL, opts: ScanOptions): string | null {
  if (!opts.agentsMaxRequests) return 'Not run: this instance runs no agents matrix (AGENTS_MAX_REQUESTS=0).';
  if (!isPublicEntry(url)) return "Not run: the agents matrix runs on scans of a store's root only.";
  return null;
}

/** Maps an unusable homepage (gather.ts homeUnusable) to the error the caller gets. */
function assertHomeUsable(home: Resource, deadlineHit: boolean, opts: ScanOptions): void {
  if (!homeUnusable(home) || home.ok) return;
  if (home.reason === 'timeout' || (deadlineHit && home.reason !== 'blocked')) {
    const limitMs = deadlineHit ? opts.timeoutMs : requestTimeout(opts);
    throw new AppError(
      'SCAN_TIMEOUT',
      `The store did not answer within ${Math.round(limitMs / 100) / 10} seconds. Check that the homepage loads for anonymous visitors, then scan again.`,
    );
  }
  if (home.reason === 'blocked') {
    const privateTarget = /not public|resolves to|loopback|private|reserved|linkLocal|unspecified|uniqueLocal/i.test(home.detail);
    throw new AppError(
      'INVALID_URL',
      privateTarget
        ? "The store's address resolves to a private or reserved network; only public stores can be scanned."
        : `The store's address was refused: ${home.detail.slice(0, 200)}`,
    );
  }
  throw new AppError(
    'STORE_UNREACHABLE',
    `The store could not be reached (${home.detail.slice(0, 120)}). Check the address and that the site is online.`,
  );
}

const requestTimeout = (opts: ScanOptions) => opts.requestTimeoutMs ?? Math.min(10_000, opts.timeoutMs);

function productSeen(p: ProductFacts): AuditResult['products'][number] {
  return {
    url: p.url,
    markup: p.markup,
    name: p.name,
    price: p.price,
    ...(p.pricePeriod ? { price_period: p.pricePeriod } : {}),
    ...(p.priceExclTax ? { price_excl_tax: p.priceExclTax } : {}),
    ...(p.markupPrice?.read === 'none' ? { price_not_read: p.markupPrice.why } : {}),
    currency: p.currency,
    availability: p.availability,
    ...(p.availabilityBasis ? { availability_basis: p.availabilityBasis } : {}),
    brand: p.brand,
    gtin: p.gtin,
    mpn: p.mpn,
    sku: p.sku,
    identifiers: p.identifiers,
    image: p.images && p.images.value.length > 0 ? { value: p.images.value[0], source: p.images.source } : null,
    attributes: p.attributes,
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') throw reason;
  const err = new Error(reason instanceof Error ? reason.message : 'The scan was aborted.');
  err.name = 'AbortError';
  throw err;
}
