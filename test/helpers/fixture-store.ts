// A store served from loopback for tests: a route table of canned answers (status, headers, body, delay)
// or raw handlers, counting every request and every connection so tests can prove what was (not) fetched.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable, pipeline } from 'node:stream';

export interface FixtureRoute {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number; // wait before answering
}
export type FixtureHandler = (req: IncomingMessage, res: ServerResponse) => void;
export type FixtureRoutes = Record<string, FixtureRoute | FixtureHandler>;

export interface FixtureStore {
  url: string; // http://127.0.0.1:PORT/ (trailing slash)
  origin: string; // http://127.0.0.1:PORT
  port: number;
  requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  connections: number;
  openSockets(): number; // sockets still open right now
  hits(path: string): number;
  setRoute(path: string, route: FixtureRoute | FixtureHandler): void;
  close(): Promise<void>;
}

/** Routes are keyed by path with query ("/search?q=x") or by pathname alone; "*" answers anything else. */
export async function startFixtureStore(routes: FixtureRoutes, opts: { host?: string } = {}): Promise<FixtureStore> {
  const table = new Map(Object.entries(routes));
  const requests: FixtureStore['requests'] = [];
  const sockets = new Set<Socket>();
  let connections = 0;

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const pathname = path.split('?')[0];
    const route = table.get(path) ?? table.get(pathname) ?? table.get('*');
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
      res.end(req.method === 'HEAD' ? undefined : route.body ?? '');
    };
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: `${origin}/`,
    origin,
    port,
    requests,
    get connections() {
      return connections;
    },
    openSockets: () => sockets.size,
    hits: (path) => requests.filter((r) => r.path === path || r.path.split('?')[0] === path).length,
    setRoute: (path, route) => void table.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The requests a scan sent in its own name: the service signs them (SIGN_REQUESTS is on by default), while the agents
 * matrix's, which stand for other agents, are never signed.
 */
export const signedRequests = (store: Pick<FixtureStore, 'requests'>, path?: string): FixtureStore['requests'] =>
  store.requests.filter((r) => r.headers.signature !== undefined && (path === undefined || r.path === path));

/** The agents matrix's requests: unsigned. */
export const unsignedRequests = (store: Pick<FixtureStore, 'requests'>): FixtureStore['requests'] => store.requests.filter((r) => r.headers.signature === undefined);

/** A store's home page carrying the owner-verification meta tag with `token` (a claim's proof). */
export const verifiedHome = (token: string, body = 'Shop'): FixtureRoute => ({
  body: `<!doctype html><html><head><title>Shop</title><meta name="store-readiness-verification" content="${token}"></head><body>${body}</body></html>`,
});

/** Starts a store whose routes need its own origin (absolute links, sitemaps, well-known endpoints). */
export async function startStoreFrom(build: (origin: string) => FixtureRoutes, opts: { host?: string } = {}): Promise<FixtureStore> {
  const store = await startFixtureStore({}, opts);
  for (const [path, route] of Object.entries(build(store.origin))) store.setRoute(path, route);
  return store;
}

/** A stream of `total` zero bytes made on demand, for bodies too large to hold in memory. */
export function zeros(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A route whose body is produced while the client reads, so a 200 MiB bomb costs the test process only what is read. */
export function streamed(total: number, headers: Record<string, string>, encoder?: () => NodeJS.ReadWriteStream) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html', ...headers });
    if (encoder) pipeline(zeros(total), encoder(), res, () => {});
    else pipeline(zeros(total), res, () => {});
  };
}

/** A route that never finishes: one byte every 500 ms until the client goes away. */
export function drip(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => res.write('a'), 500);
  res.on('close', () => clearInterval(timer));
}
