// Property-based fuzzing of POST /mcp through the real app (docs/security.md O5/O6/O7): random JSON-RPC messages
// (methods, ids of every JSON type, params and tool arguments with operators and prototype keys), random raw
// bodies and transport headers. Properties: never a 5xx; every answer with a body is JSON-RPC 2.0 (never HTML)
// carrying the request's id when it had a valid one; tool failures are isError results in the spec's Error shape
// and never INTERNAL_ERROR; no stack or file path leaks; the tools never contact a store; stored data unchanged.
// Seeded (FUZZ_SEED) and bounded (numRuns and a time budget per property; FUZZ_SCALE=10 hunts deeper).
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fc from 'fast-check';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { startFixtureStore, type FixtureStore } from '../helpers/fixture-store.js';
import { saveFakeScan } from '../helpers/scans.js';
import { ErrorBody } from '../../lib/errors.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
fc.configureGlobal({ seed: SEED, endOnFailure: true });
const STACK_OR_PATH = /\n\s+at |\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+/;
const TOOLS = ['check_merchant_readiness', 'get_readiness_report', 'list_agent_ready_stores'];

let app: TestApp;
let shop: FixtureStore; // seeded in the index under its own host: a tool that fetched it would show here
let seeded: ScanResult;
let sent = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

before(async () => {
  app = await startApp(null, { MCP_ALLOWED_ORIGINS: 'https://agent.example' });
  shop = await startFixtureStore({ '*': { body: '<!doctype html><title>shop</title>' } });
  seeded = await saveFakeScan(app.db, { host: `127.0.0.1:${shop.port}`, score: 88, agentReady: true });
  await saveFakeScan(app.db, { host: 'seeded.test', score: 71, vertical: 'pets' });
});
after(async () => {
  agent.destroy();
  await app?.close();
  await shop?.close();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function post(body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Raw> {
  sent++;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: Number(new URL(app.url).port), method: 'POST', path: '/mcp', headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function snapshot() {
  return {
    stores: await app.db.countStores(),
    scan: JSON.stringify((await app.db.getScan(seeded.scan_id))?.report),
    latest: JSON.stringify(await app.db.latestByHost('seeded.test')),
  };
}

const isValidId = (id: unknown) => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/** The contract for one answer to one message. */
function check(res: Raw, message: unknown, label: string): void {
  const where = `${label} → ${res.status} ${res.text.slice(0, 200)}`;
  assert.ok(res.status >= 200 && res.status < 500, where);
  assert.doesNotMatch(res.text, STACK_OR_PATH, where);
  assert.doesNotMatch(String(res.headers['content-type'] ?? ''), /html/i, where);
  if (res.status === 202 && res.text === '') return; // a notification or a response: accepted, no body
  const body = JSON.parse(res.text) as { jsonrpc: string; id?: unknown; result?: any; error?: { code: number; message: string } };
  assert.equal(body.jsonrpc, '2.0', where);
  assert.ok((body.result === undefined) !== (body.error === undefined), `exactly one of result and error: ${where}`);
  if (body.error) assert.ok(Number.isInteger(body.error.code) && typeof body.error.message === 'string', where);
  const m = message as { id?: unknown; method?: unknown } | null;
  if (res.status === 200 && m && typeof m === 'object' && isValidId(m.id)) assert.deepEqual(body.id, JSON.parse(JSON.stringify(m.id)), where);
  if (res.status >= 400) assert.ok(body.error, where);
  if (body.result?.isError === true) {
    const text = (body.result.content as { type: string; text: string }[]).map((c) => c.text).join('');
    assert.ok(text.length < 4000, `an error of ${text.length} characters: ${where}`);
    // The SDK refuses arguments that break the input schema itself, in plain text (v1 and v2 wording); our handlers
    // answer JSON.
    if (!/^(?:MCP error -32602: |Input validation error: )/.test(text)) {
      const err = JSON.parse(text);
      assert.ok(ErrorBody.safeParse(err).success, where);
      assert.notEqual(err.code, 'INTERNAL_ERROR', `a tool crashed: ${where}`);
    }
  }
}

// ------------------------------------------------------------------------------------------------------------

const weird = fc.oneof(
  fc.constant({ $gt: '' }),
  fc.constant({ $ne: null }),
  fc.constant({ $regex: '.*' }),
  fc.constant(['seeded.test']),
  fc.constantFrom('seeded.test', 'SEEDED.TEST', 'www.seeded.test', 'https://seeded.test/x', '', ' ', 'shop.test\u0000', '<script>', 'a'.repeat(300), '__proto__', 'constructor'),
);
const hostArg = fc.oneof(fc.domain(), fc.string({ maxLength: 30 }), fc.constant(''), weird);
const args = fc.oneof(
  fc.record({ host: hostArg }, { requiredKeys: [] }),
  fc.record({ vertical: fc.oneof(fc.constantFrom('pets', 'apparel', 'cars', ''), weird), limit: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.double(), fc.constant(1e9), weird) }, { requiredKeys: [] }),
  fc.dictionary(fc.constantFrom('host', 'limit', 'vertical', '__proto__', 'constructor', 'url', '$where'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const toolName = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...TOOLS) },
  fc.constantFrom('scan_store', 'scan', 'get_scan', 'read_reports', '__proto__', 'toString', 'constructor', ''),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 1 }),
);
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 12 }), fc.constant(null), fc.double(), fc.boolean(), fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }));
const methodName = fc.oneof(
  { weight: 6, arbitrary: fc.constant('tools/call') },
  { weight: 2, arbitrary: fc.constantFrom('tools/list', 'initialize', 'ping', 'resources/list', 'prompts/list', 'notifications/initialized', 'logging/setLevel', 'completion/complete') },
  fc.string({ maxLength: 16 }),
  fc.jsonValue({ maxDepth: 1 }),
);
const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, fc.jsonValue({ maxDepth: 1 })),
    id,
    method: methodName,
    params: fc.oneof(
      { weight: 6, arbitrary: fc.record({ name: toolName, arguments: args, _meta: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }) },
      fc.record({ protocolVersion: fc.string(), capabilities: fc.jsonValue({ maxDepth: 2 }), clientInfo: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: ['jsonrpc'] },
);

test('random JSON-RPC messages: never 5xx, always JSON-RPC, tool errors in the spec shape, no store contacted, data unchanged', { timeout: 60_000 }, async () => {
  const before = await snapshot();
  await fc.assert(
    fc.asyncProperty(message, async (m) => {
      const text = JSON.stringify(m);
      const res = await post(text);
      check(res, m, text.slice(0, 200));
    }),
    { numRuns: 700 * SCALE, plugins: [fc.interruptAfterTimeLimit(10_000 * SCALE)] },
  );
  assert.deepEqual(await snapshot(), before);
  assert.equal(shop.connections, 0, 'MCP never contacts a store');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('random raw bodies and transport headers: never 5xx, JSON-RPC errors (never HTML), the process keeps serving', { timeout: 60_000 }, async () => {
  const before = await snapshot();
  const body = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.json({ maxDepth: 3 }),
    fc.json({ maxDepth: 3 }).map((s) => s.slice(0, Math.floor(s.length / 2))),
    fc.array(message, { minLength: 0, maxLength: 3 }).map((a) => JSON.stringify(a)),
    fc.nat({ max: 200 }).map((n) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${'['.repeat(n)}${']'.repeat(n)}}`),
    fc.constantFrom('', 'null', '[]', '{}', '{"jsonrpc":"2.0"}', '\uFEFF{"jsonrpc":"2.0","id":1,"method":"tools/list"}', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
  );
  const headers = fc.record(
    {
      'content-type': fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'application/JSON', 'application/json-rpc', ''),
      accept: fc.constantFrom('application/json', 'text/event-stream', 'application/json, text/event-stream', 'text/html', '*/*', ''),
      origin: fc.oneof(fc.constantFrom('http://localhost:3000', 'https://agent.example', 'https://evil.test', 'null', ''), fc.webUrl()),
      'mcp-protocol-version': fc.constantFrom('2025-06-18', '2025-03-26', '1999-01-01', 'x', ''),
      'mcp-session-id': fc.constantFrom('abc', '', 'x'.repeat(200)),
      'content-encoding': fc.constantFrom('gzip', 'identity', 'br', ''),
      authorization: fc.constantFrom('Bearer srk_nope', 'Basic x', ''),
    },
    { requiredKeys: ['content-type'] },
  );
  await fc.assert(
    fc.asyncProperty(body, headers, async (b, h) => {
      const sentHeaders = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== ''));
      const res = await post(b, sentHeaders);
      const label = `${JSON.stringify(sentHeaders)} ${b.slice(0, 120)}`;
      assert.ok(res.status >= 200 && res.status < 500, `${label} → ${res.status} ${res.text.slice(0, 200)}`);
      assert.doesNotMatch(res.text, STACK_OR_PATH, label);
      assert.doesNotMatch(String(res.headers['content-type'] ?? ''), /html/i, label);
      if (res.text !== '') {
        const parsed = JSON.parse(res.text) as { jsonrpc?: string; code?: string };
        // An invalid key is refused by the REST-wide auth check first, in the spec's Error shape.
        if (res.status === 401) assert.equal(parsed.code, 'UNAUTHORIZED', label);
        else assert.equal(parsed.jsonrpc, '2.0', label);
      }
      if (sentHeaders.origin && !['http://localhost:3000', 'https://agent.example'].includes(new URL(sentHeaders.origin, 'http://x').origin) && res.status !== 401) {
        assert.equal(res.status, 403, `foreign origin ${sentHeaders.origin}: ${res.status}`);
      }
    }),
    { numRuns: 300 * SCALE, plugins: [fc.interruptAfterTimeLimit(10_000 * SCALE)] },
  );
  assert.deepEqual(await snapshot(), before);
  assert.equal(shop.connections, 0);
});

test('after all that: /healthz answers and a normal MCP call still works', async (t) => {
  t.diagnostic(`seed ${SEED}: ${sent} messages sent`);
  assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
  const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/call', params: { name: 'check_merchant_readiness', arguments: { host: 'seeded.test' } } }));
  assert.equal(res.status, 200);
  assert.equal(JSON.parse(res.text).result.structuredContent.score, 71);
});
