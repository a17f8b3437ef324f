// The only way out for the browser: an HTTP proxy on loopback that Chromium must use for every request (pages,
// scripts, XHR, images, iframes, websockets), plain or tunnelled. Each request is judged by the scanner's own rules
// (outbound/url.ts for the URL, outbound/fetch.ts for the resolved address), then dialled at exactly the address that was
// checked, so a DNS answer that changes between check and connect (rebinding) never reaches an internal host.
// It also counts requests and bytes against the render's budget and cuts everything off once one is spent.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { resolveChecked, type AddressLimits } from '../outbound/fetch.js';
import { targetRefusal, type TargetPolicy } from '../outbound/url.js';

export interface ProxyRules extends AddressLimits {
  allowedPorts: TargetPolicy['allowedPorts'];
}

export interface ProxyBudget {
  maxRequests: number;
  maxBytes: number;
}

export interface RefusedRequest {
  url: string; // untrusted: written by the page
  why: string;
}

export interface AddressProxy {
  /** http://127.0.0.1:PORT, for Chromium's proxy setting. */
  readonly server: string;
  readonly requests: number;
  readonly bytes: number;
  /** The first request refused by the address rules for each host (at most MAX_REFUSED_KEPT hosts). */
  readonly refused: RefusedRequest[];
  readonly refusedCount: number;
  /** Which budget ran out, or null. */
  readonly budgetSpent: string | null;
  close(): Promise<void>;
}

const MAX_REFUSED_KEPT = 10;
// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded to the store.
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export async function startAddressProxy(rules: ProxyRules, budget: ProxyBudget): Promise<AddressProxy> {
  const policy: TargetPolicy = { allowPrivate: rules.allowPrivate, allowedPorts: rules.allowedPorts, allowIPAddressList: rules.allowIPAddressList };
  const sockets = new Set<Duplex>();
  const refused: RefusedRequest[] = [];
  let refusedCount = 0;
  let requests = 0;
  let bytes = 0;
  let budgetSpent: string | null = null;

  const refusedHosts = new Set<string>();
  const refuse = (url: string, host: string, why: string) => {
    refusedCount++;
    if (refused.length >= MAX_REFUSED_KEPT || refusedHosts.has(host)) return;
    refusedHosts.add(host);
    refused.push({ url: url.slice(0, 200), why: why.slice(0, 200) });
  };
  /** Counts one request; false (and the reason kept) once the request budget is spent. */
  const admit = (): boolean => {
    if (budgetSpent) return false;
    if (requests >= budget.maxRequests) {
      budgetSpent = `request budget of ${budget.maxRequests} spent`;
      return false;
    }
    requests++;
    return true;
  };
  /** Adds transferred bytes; past the byte budget every open connection is cut. */
  const spend = (n: number) => {
    bytes += n;
    if (bytes <= budget.maxBytes || budgetSpent) return;
    budgetSpent = `byte budget of ${Math.round(budget.maxBytes / 1024 / 1024)} MiB spent`;
    for (const s of sockets) s.destroy();
  };
  const track = (s: Duplex) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  /**
   * The checked address for a URL, or why it cannot be had: refused by the rules (kept for the report), or a name
   * that does not resolve (the browser's own service hosts on an offline machine; not a refusal).
   */
  const judge = async (url: URL): Promise<{ address: string } | { why: string; refused: boolean }> => {
    const why = targetRefusal(url, policy);
    if (why) return { why, refused: true };
    try {
      return { address: (await resolveChecked(url.hostname.replace(/^\[|\]$/g, ''), rules)).address };
    } catch (err) {
      const e = err as Error & { code?: string };
      return e.code === 'ERR_SCAN_BLOCKED' ? { why: e.message, refused: true } : { why: `lookup failed (${e.code ?? 'error'})`, refused: false };
    }
  };

  const server = createServer((req, res) => void forward(req, res));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(req, client, head));
  server.on('connection', track);

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    if (!admit()) return void res.writeHead(429, { connection: 'close' }).end();
    const verdict = url.protocol === 'http:' ? await judge(url) : { why: `only http and https, not ${url.protocol.slice(0, 20)}`, refused: true };
    if ('why' in verdict) {
      if (!verdict.refused) return void res.writeHead(502).end();
      refuse(url.href, url.hostname, verdict.why);
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('refused by the scanner\'s address rules');
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_HEADERS.has(k)));
    const upstream = httpRequest({
      host: verdict.address,
      port: url.port || 80,
      method: req.method,
      path: url.pathname + url.search,
      headers: { ...headers, host: url.host },
      setHost: false,
      agent: false,
    });
    upstream.on('socket', track);
    upstream.on('response', (answer) => {
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOP_HEADERS.has(k)));
      res.writeHead(answer.statusCode ?? 502, out as Record<string, string | string[]>);
      answer.on('data', (chunk: Buffer) => spend(chunk.length));
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.on('data', (chunk: Buffer) => spend(chunk.length));
    req.pipe(upstream);
  }

  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    client.on('error', () => client.destroy());
    const target = req.url ?? '';
    let url: URL;
    try {
      // CONNECT carries only host:port; judged as the https URL it stands for (websockets tunnel the same way).
      url = new URL(`https://${target}/`);
    } catch {
      return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    }
    if (!admit()) return void client.end('HTTP/1.1 429 Too Many Requests\r\n\r\n');
    const verdict = await judge(url);
    if ('why' in verdict) {
      if (!verdict.refused) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      refuse(target, url.hostname, verdict.why);
      return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    }
    const upstream: Socket = connect({ host: verdict.address, port: Number(url.port || 443) });
    track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.on('data', (chunk: Buffer) => spend(chunk.length));
      client.on('data', (chunk: Buffer) => spend(chunk.length));
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
    client.once('close', () => upstream.destroy());
  }

  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get bytes() {
      return bytes;
    },
    refused,
    get refusedCount() {
      return refusedCount;
    },
    get budgetSpent() {
      return budgetSpent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
