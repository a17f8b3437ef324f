// The scanner's only network code: one Fetcher per scan, holding its request budget, byte budget, deadline and
// SSRF filter. Every answer (including refusals, timeouts and oversized bodies) comes back as a Resource; fetch()
// never throws. It does not parse bodies or decide what a status means for a check.
import dns from 'node:dns';
import { performance } from 'node:perf_hooks';
import { TextDecoder } from 'node:util';
import got, { type Got, type OptionsInit, type Response } from 'got';
import pLimit from 'p-limit';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { FailReason, HttpResponse, Resource } from './resource.js';
import type { RequestSigner } from './request-signer.js';
import { addressRange, classifyAddress, targetRefusal, type TargetPolicy } from './url.js';

type LookupAddress = { address: string; family: number };
type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: object, callback: LookupCallback) => void;

export interface FetchLimits {
  allowPrivate: boolean; // SCAN_ALLOW_PRIVATE
  allowIPAddressList?: string[]; // tests: allow exactly these addresses while judging everything else as in production
  allowedPorts?: number[] | 'any'; // default [80, 443] unless allowPrivate ('any')
  maxRequests: number; // SCAN_MAX_REQUESTS: every request AND every redirect hop counts
  deadlineMs: number; // SCAN_TIMEOUT_MS for the whole scan
  requestTimeoutMs?: number; // per request total, redirects included (default 10000)
  maxRedirects?: number; // default 5
  maxTotalBytes?: number; // default 12 MiB per scan
  concurrency?: number; // parallel fetches, default 4
  signal?: AbortSignal; // client disconnect; merged with the deadline
  lookup?: LookupFunction; // injected DNS (tests)
  baseUrl: string; // for the user agents' +URL
  /** Signs every request (Web Bot Auth) unless a request says otherwise; none: requests go unsigned. */
  signer?: RequestSigner;
  /** Where a refused DNS answer's address goes: the log only, never the report (a store could publish it). */
  log?: { warn(obj: unknown, msg?: string): void };
}

export type BodyKind = 'html' | 'text' | 'json' | 'xml' | 'sitemap';

export interface FetchOptions {
  ua?: 'neutral' | 'agent';
  /** A user-agent of its own (the agents matrix sends each agent's), instead of `ua`'s. */
  userAgent?: string;
  /** false: sent without a signature even when the fetcher has a signer (the matrix's unsigned requests). */
  signed?: boolean;
  accept?: string;
  kind: BodyKind;
  method?: 'GET' | 'POST' | 'HEAD';
  body?: string;
  headers?: Record<string, string>;
  maxBodyBytes?: number; // a smaller cap than the kind's (webhook answers are not read past a few KiB)
  /** false: a 3xx is answered as it is, for a caller that decides itself where a request may go (MCP POSTs). */
  followRedirect?: boolean;
}

export interface FetchLogEntry {
  url: string;
  status: number | null;
  ms: number;
  outcome: string;
}

export interface Fetcher {
  fetch(url: string, opts: FetchOptions): Promise<Resource>;
  readonly requestsUsed: number;
  readonly log: FetchLogEntry[];
  readonly signal: AbortSignal;
  readonly deadlineHit: boolean;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** Decompressed bytes kept per response: enough for any real page, far below a decompression bomb. */
export const BODY_CAPS: Readonly<Record<BodyKind, number>> = {
  html: 2 * MiB,
  sitemap: 5 * MiB,
  text: 512 * KiB,
  json: 512 * KiB,
  xml: 512 * KiB,
};

const DEFAULT_ACCEPT: Readonly<Record<BodyKind, string>> = {
  html: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
  text: 'text/plain,*/*;q=0.5',
  json: 'application/json,*/*;q=0.5',
  xml: 'application/xml,text/xml;q=0.9,*/*;q=0.5',
  sitemap: 'application/xml,text/xml;q=0.9,*/*;q=0.5',
};

const bot = (baseUrl: string) => `+${baseUrl.replace(/\/+$/, '')}/bot`;
export const NEUTRAL_UA = (baseUrl: string): string => `Mozilla/5.0 (compatible; store-readiness/1.0; ${bot(baseUrl)})`;
export const AGENT_PROBE_UA = (baseUrl: string): string =>
  `Mozilla/5.0 (compatible; store-readiness-agent-probe/1.0; simulates ChatGPT-User/1.0, Claude-User/1.0, PerplexityBot/1.0; ${bot(baseUrl)})`;
/** The browser view's Chromium: its own engine and version, then the scanner's token and this page, like the others. */
export const BROWSER_UA = (baseUrl: string, chromeVersion: string): string =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/${chromeVersion} Safari/537.36 (compatible; store-readiness-browser/1.0; ${bot(baseUrl)})`;

/** Thrown inside got (hooks, lookup) for anything the SSRF rules or the budget refuse; mapped to 'blocked'. */
class Refusal extends Error {
  readonly code = 'ERR_SCAN_BLOCKED';
}

interface ScanState {
  requestsUsed: number;
  bytesUsed: number;
  readonly log: FetchLogEntry[];
}

type Failure = { reason: FailReason; detail: string };

export function createFetcher(limits: FetchLimits): Fetcher {
  const policy: TargetPolicy = {
    allowPrivate: limits.allowPrivate,
    allowedPorts: limits.allowedPorts ?? (limits.allowPrivate ? 'any' : [80, 443]),
    allowIPAddressList: limits.allowIPAddressList,
  };
  const state: ScanState = { requestsUsed: 0, bytesUsed: 0, log: [] };
  const scan = scanSignal(limits);
  const client = createClient(limits, policy, state);
  const limit = pLimit(limits.concurrency ?? 4);
  const ctx: FetchContext = { limits, policy, state, scan, client };

  return {
    fetch: (url, opts) => limit(() => fetchLogged(ctx, url, opts)),
    get requestsUsed() {
      return state.requestsUsed;
    },
    log: state.log,
    signal: scan.signal,
    get deadlineHit() {
      return scan.deadlineHit();
    },
  };
}

interface ScanSignal {
  signal: AbortSignal;
  deadlineHit(): boolean;
}

// The deadline and the client's disconnect end the scan alike; only the deadline counts as a timeout.
function scanSignal(limits: FetchLimits): ScanSignal {
  const deadline = AbortSignal.timeout(limits.deadlineMs);
  const external = limits.signal;
  if (!external) return { signal: deadline, deadlineHit: () => deadline.aborted };
  let externalFirst = external.aborted;
  external.addEventListener('abort', () => void (externalFirst ||= !deadline.aborted), { once: true });
  return { signal: AbortSignal.any([deadline, external]), deadlineHit: () => deadline.aborted && !externalFirst };
}

/** What the address rules need to judge a resolved address: the fetcher's limits, or the browser proxy's. */
export type AddressLimits = Pick<FetchLimits, 'allowPrivate' | 'allowIPAddressList' | 'lookup' | 'log'>;

/** Accepts or refuses one resolved address with the rules of the filtering agent (null = allowed). */
function addressRefusal(ip: string, limits: AddressLimits): string | null {
  if (limits.allowIPAddressList?.includes(ip)) return null;
  const range = addressRange(ip);
  if (limits.allowPrivate) return range === 'unspecified' ? range : null;
  return classifyAddress(ip) === 'allow' ? null : range;
}

function toAddressList(address: string | LookupAddress[] | undefined, family?: number): LookupAddress[] {
  if (Array.isArray(address)) return address;
  return typeof address === 'string' ? [{ address, family: family ?? (address.includes(':') ? 6 : 4) }] : [];
}

/**
 * Resolves every address of a name and refuses the whole lookup when any one is not allowed, so a mixed answer
 * ([public, loopback]) never gets dialled. The agent wraps this function again at connect time (it reads the
 * `lookup` got hands to http.request), so the address checked is always the address connected to.
 */
function guardedLookup(base: LookupFunction, limits: AddressLimits): LookupFunction {
  return (hostname, options, callback) => {
    const wantAll = (options as { all?: boolean }).all === true;
    base(hostname, { ...options, all: true }, (err, address, family) => {
      // got and net expect an asynchronous callback, whatever the injected lookup does.
      setImmediate(() => {
        if (err) return callback(err, []);
        const list = toAddressList(address, family);
        if (list.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        for (const { address: ip } of list) {
          const why = addressRefusal(ip, limits);
          if (why) {
            limits.log?.warn({ host: hostname.slice(0, 253), address: ip, range: why }, 'scan target resolves to a non-public address');
            return callback(new Refusal(`${hostname.slice(0, 100)} resolves to a non-public address`), []);
          }
        }
        if (wantAll) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      });
    });
  };
}

/**
 * Resolves a host name under the same rules as every fetch (all addresses checked, any refused one refuses the
 * name), for code that dials by itself: the browser's proxy connects to exactly the address returned here.
 */
export function resolveChecked(hostname: string, limits: AddressLimits): Promise<{ address: string; family: number }> {
  const lookup = guardedLookup(limits.lookup ?? (dns.lookup as unknown as LookupFunction), limits);
  return new Promise((resolve, reject) => {
    lookup(hostname, {}, (err, address, family) => {
      if (err) return reject(err); // a refusal carries code ERR_SCAN_BLOCKED
      resolve(toAddressList(address, family)[0]);
    });
  });
}

function createClient(limits: FetchLimits, policy: TargetPolicy, state: ScanState): Got {
  const filter = {
    keepAlive: false,
    allowPrivateIPAddress: limits.allowPrivate,
    allowIPAddressList: limits.allowIPAddressList ?? [],
  };
  const lookup = guardedLookup(limits.lookup ?? (dns.lookup as unknown as LookupFunction), limits);
  const options: OptionsInit = {
    agent: { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) },
    http2: false, // got's http2 path bypasses the agents, and with them the filter
    dnsLookup: lookup as unknown as OptionsInit['dnsLookup'],
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: true,
    maxRedirects: limits.maxRedirects ?? 5,
    decompress: true,
    timeout: { lookup: 3000, connect: 5000, request: requestTimeout(limits) },
    hooks: {
      beforeRequest: [
        (options) => {
          countRequest(state, limits.maxRequests);
          // Every hop is signed for its own authority: a redirect to another host gets a signature for that host.
          if (limits.signer && (options.context as { signed?: boolean }).signed !== false) Object.assign(options.headers, limits.signer.headers(options.url as URL));
        },
      ],
      beforeRedirect: [(next) => checkRedirect(next.url, policy)],
    },
  };
  return got.extend(options);
}

// Runs before every request got sends, redirect hops included.
function countRequest(state: ScanState, maxRequests: number): void {
  if (state.requestsUsed >= maxRequests) throw new Refusal(`request budget of ${maxRequests} exhausted`);
  state.requestsUsed++;
}

function checkRedirect(next: URL | string | undefined, policy: TargetPolicy): void {
  const url = typeof next === 'string' ? new URL(next) : next;
  if (!url) throw new Refusal('redirect without a target');
  const why = targetRefusal(url, policy);
  if (why) throw new Refusal(`redirect to ${url.href.slice(0, 200)} refused: ${why}`);
}

interface FetchContext {
  limits: FetchLimits;
  policy: TargetPolicy;
  state: ScanState;
  scan: ScanSignal;
  client: Got;
}

async function fetchLogged(ctx: FetchContext, url: string, opts: FetchOptions): Promise<Resource> {
  const started = performance.now();
  let resource: Resource;
  try {
    resource = await fetchOnce(ctx, url, opts, started);
  } catch (err) {
    resource = { ok: false, reason: 'error', detail: `internal: ${(err as Error).message}`.slice(0, 200), url };
  }
  const outcome = resource.ok ? 'ok' : resource.reason;
  ctx.state.log.push({ url, status: resource.res?.status ?? null, ms: Math.round(performance.now() - started), outcome });
  return resource;
}

async function fetchOnce(ctx: FetchContext, url: string, opts: FetchOptions, started: number): Promise<Resource> {
  const refused = precheck(ctx, url);
  if (refused) return { ok: false, ...refused, url };
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new DOMException('request timeout', 'TimeoutError')), requestTimeout(ctx.limits));
  try {
    const outcome = await streamBody(ctx, url, opts, AbortSignal.any([ctx.scan.signal, timer.signal]));
    return toResource(ctx, url, outcome, started, timer.signal);
  } finally {
    clearTimeout(handle);
  }
}

// Refusals that need no socket: bad URL, SSRF rules, exhausted budgets, a scan already over.
function precheck(ctx: FetchContext, url: string): Failure | null {
  if (ctx.scan.signal.aborted) return scanEnded(ctx.scan);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { reason: 'error', detail: 'invalid URL' };
  }
  const why = targetRefusal(parsed, ctx.policy);
  if (why) return { reason: 'blocked', detail: why };
  const { state, limits } = ctx;
  if (state.requestsUsed >= limits.maxRequests) return { reason: 'blocked', detail: `request budget of ${limits.maxRequests} exhausted` };
  if (state.bytesUsed >= maxTotalBytes(limits)) return { reason: 'blocked', detail: 'scan byte budget exhausted' };
  return null;
}

function scanEnded(scan: ScanSignal): Failure {
  return scan.deadlineHit() ? { reason: 'timeout', detail: 'scan deadline reached' } : { reason: 'error', detail: 'aborted' };
}

const maxTotalBytes = (limits: FetchLimits) => limits.maxTotalBytes ?? 12 * MiB;
const requestTimeout = (limits: FetchLimits) => limits.requestTimeoutMs ?? 10_000;

interface StreamOutcome {
  response?: Response;
  body: Buffer;
  capped: string | null; // why the body was cut short
  error?: Error & { code?: string };
}

// Streams the body, keeping at most the kind's cap (and what is left of the scan's byte budget) of decompressed
// bytes, then cancels the request: a 200 MiB gzip bomb costs 2 MiB.
function streamBody(ctx: FetchContext, url: string, opts: FetchOptions, signal: AbortSignal): Promise<StreamOutcome> {
  const cap = Math.min(opts.maxBodyBytes ?? Infinity, BODY_CAPS[opts.kind]);
  const request = ctx.client.stream(url, {
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: requestHeaders(ctx.limits.baseUrl, opts),
    context: { signed: opts.signed !== false },
    signal,
    ...(opts.followRedirect === false ? { followRedirect: false } : {}),
  });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let response: StreamOutcome['response'];
    let done = false;
    const finish = (capped: string | null, error?: Error) => {
      if (done) return;
      done = true;
      resolve({ response, body: Buffer.concat(chunks, kept), capped, error });
    };
    request.on('response', (r: Response) => void (response = r));
    request.on('data', (chunk: Buffer) => {
      if (done) return;
      const totalRoom = maxTotalBytes(ctx.limits) - ctx.state.bytesUsed;
      const room = Math.max(0, Math.min(cap - kept, totalRoom));
      const take = Math.min(room, chunk.length);
      chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
      kept += take;
      ctx.state.bytesUsed += take;
      if (take === chunk.length) return;
      finish(kept >= cap ? `body over the ${formatBytes(cap)} cap for ${opts.kind}` : 'scan byte budget exhausted');
      request.destroy();
    });
    request.once('end', () => finish(null));
    request.on('error', (err: Error) => finish(null, err)); // `on`: a second error must not go unhandled
    request.once('close', () => finish(null, Object.assign(new Error('connection closed early'), { code: 'ECONNRESET' })));
  });
}

function requestHeaders(baseUrl: string, opts: FetchOptions): Record<string, string> {
  const ua = opts.userAgent ?? (opts.ua === 'agent' ? AGENT_PROBE_UA(baseUrl) : NEUTRAL_UA(baseUrl));
  return { 'user-agent': ua, accept: opts.accept ?? DEFAULT_ACCEPT[opts.kind], ...lowerCaseKeys(opts.headers) };
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

function toResource(
  ctx: FetchContext,
  url: string,
  outcome: StreamOutcome,
  started: number,
  requestTimer: AbortSignal,
): Resource {
  const res = outcome.response ? toHttpResponse(url, outcome, started) : undefined;
  if (outcome.error) return { ok: false, ...classifyError(ctx, outcome.error, requestTimer), url, ...(res ? { res } : {}) };
  if (!res) return { ok: false, reason: 'error', detail: 'no response', url };
  if (outcome.capped) return { ok: false, reason: 'too-large', detail: outcome.capped, url, res };
  if (res.status >= 200 && res.status < 300) return { ok: true, res };
  const reason: FailReason = res.status === 404 || res.status === 410 ? 'missing' : 'status';
  return { ok: false, reason, detail: `HTTP ${res.status}`, url, res };
}

function toHttpResponse(requestedUrl: string, outcome: StreamOutcome, started: number): HttpResponse {
  const response = outcome.response as Response;
  const headers = flattenHeaders(response.headers);
  return {
    requestedUrl,
    url: response.url ?? requestedUrl,
    status: response.statusCode ?? 0,
    headers,
    contentType: mediaType(headers['content-type']),
    body: decodeBody(outcome.body, headers['content-type']),
    ms: Math.round(performance.now() - started),
    redirects: (response.redirectUrls ?? []).map(String),
  };
}

function classifyError(ctx: FetchContext, err: Error & { code?: string }, requestTimer: AbortSignal): Failure {
  if (ctx.scan.signal.aborted) return scanEnded(ctx.scan);
  if (requestTimer.aborted) return { reason: 'timeout', detail: `request timeout (${requestTimeout(ctx.limits)} ms)` };
  const code = err.code ?? '';
  if (code === 'ERR_SCAN_BLOCKED') return { reason: 'blocked', detail: err.message.slice(0, 300) };
  if (code === 'ERR_UNSUPPORTED_PROTOCOL') return { reason: 'blocked', detail: `redirect refused: ${err.message.slice(0, 100)}` };
  // The agent's own refusal (a second line behind the checks above) carries no code, only this wording.
  if (/^DNS lookup .{0,200}is not allowed/.test(err.message.slice(0, 300))) return { reason: 'blocked', detail: err.message.slice(0, 300) };
  if (err.name === 'TimeoutError' || code === 'ETIMEDOUT') return { reason: 'timeout', detail: err.message.slice(0, 100) };
  if (code === 'ERR_TOO_MANY_REDIRECTS') return { reason: 'error', detail: `more than ${ctx.limits.maxRedirects ?? 5} redirects` };
  return { reason: 'error', detail: code && code !== 'ERR_GOT_REQUEST_ERROR' ? code : err.message.slice(0, 100) };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

// Honours a declared charset (iso-8859-1, windows-1252, shift_jis …) and falls back to UTF-8 for unknown labels.
function decodeBody(body: Buffer, contentType: string | undefined): string {
  const label = /;\s*charset\s*=\s*"?([a-z0-9_.:-]{1,40})/i.exec((contentType ?? '').slice(0, 256))?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  const text = decoder.decode(body);
  return decoder.encoding === 'windows-1252' ? fixWindows1252(text) : text;
}

// WHATWG maps iso-8859-1 and latin1 to windows-1252, but Node 20's decoder returns raw C1 controls for 0x80–0x9F
// (a "€" arrives as U+0080). Remap them; positions windows-1252 leaves undefined stay as they are.
const CP1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
function fixWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (ch) => CP1252_C1[ch.charCodeAt(0) - 0x80]);
}

function formatBytes(n: number): string {
  return n >= MiB ? `${n / MiB} MiB` : `${n / KiB} KiB`;
}
