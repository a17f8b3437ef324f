// One log line per request (id, method, url with the sign-in token cut out, status, response time), the request
// id echoed as X-Request-Id, and req.log lines of a failing request carrying the same request. Real app, real
// SQLite store, a pino logger writing into memory.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../server/app.js';
import { testConfig } from '../../lib/config.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';

interface Line {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  err?: { message: string };
  [key: string]: unknown;
}

async function start(t: { after(fn: () => Promise<void>): void }) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      cb();
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-log-'));
  const db = new SqliteRepo(join(dataDir, 'store.db'));
  await db.init();
  const config = testConfig({ DATA_DIR: dataDir, BASE_URL: 'http://localhost:3000' });
  const server = createApp({ config, db, log: pino({ level: 'info' }, sink) }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, db, lines };
}

/** The request line of a request id, once the response has gone (the line is written when it finishes). */
async function lineOf(lines: Line[], id: string): Promise<Line[]> {
  for (let i = 0; i < 100 && !lines.some((l) => l.req?.id === id && l.res); i++) await new Promise((r) => setTimeout(r, 10));
  return lines.filter((l) => l.req?.id === id && l.res);
}

test('every request gets exactly one line with its id, method, url and status', async (t) => {
  const app = await start(t);
  const res = await fetch(`${app.url}/badge/shop.example.com.svg`, { headers: { authorization: 'Bearer sr_live_secret' } });
  await res.arrayBuffer();
  const id = res.headers.get('x-request-id') ?? '';
  assert.match(id, /^[0-9a-f-]{36}$/);
  const [line, ...more] = await lineOf(app.lines, id);
  assert.equal(more.length, 0);
  assert.deepEqual(line.req, { id, method: 'GET', url: '/badge/shop.example.com.svg' });
  assert.deepEqual(line.res, { statusCode: 200 });
  assert.equal(line.msg, 'request completed');
  assert.equal(line.level, 30);
  assert.equal(typeof line.responseTime, 'number');
  assert.ok(!JSON.stringify(app.lines).includes('sr_live_secret'), 'no header reaches the log');
});

test("a caller's plain request id is echoed and logged; the sign-in token never reaches the log", async (t) => {
  const app = await start(t);
  const res = await fetch(`${app.url}/console/sign-in/confirm?token=very-secret-token&x=1`, { headers: { 'x-request-id': 'trace-42' } });
  await res.arrayBuffer();
  assert.equal(res.headers.get('x-request-id'), 'trace-42');
  const [line] = await lineOf(app.lines, 'trace-42');
  assert.equal(line.req?.url, '/console/sign-in/confirm?token=[redacted]&x=1');
  assert.ok(!JSON.stringify(app.lines).includes('very-secret-token'));
});

test('a request failing inside the service logs its error on req.log and one error line, both naming the request', async (t) => {
  const app = await start(t);
  (app.db as unknown as { latestByHost(): Promise<never> }).latestByHost = async () => {
    throw new Error('disk on fire');
  };
  const res = await fetch(`${app.url}/badge/shop.example.com.svg`, { headers: { 'x-request-id': 'boom-1' } });
  assert.equal(res.status, 500);
  await res.arrayBuffer();
  const [line, ...more] = await lineOf(app.lines, 'boom-1');
  assert.equal(more.length, 0);
  assert.equal(line.level, 50);
  assert.equal(line.msg, 'request errored');
  assert.deepEqual(line.res, { statusCode: 500 });
  const unexpected = app.lines.find((l) => l.msg === 'unexpected error');
  assert.equal(unexpected?.req?.id, 'boom-1');
  assert.equal(unexpected?.err?.message, 'disk on fire');
});

test('a form with 40 fields is a 413 page on the console and the scan form, and nothing is logged at error level', async (t) => {
  const app = await start(t);
  const form = new URLSearchParams(Array.from({ length: 40 }, (_, i): [string, string] => [`f${i}`, 'x'])).toString();
  for (const path of ['/console/sign-in', '/console/webhooks', '/scan']) {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, 'x-request-id': `fields${path.replace(/\//g, '-')}` },
    });
    const page = await res.text();
    assert.equal(res.status, 413, `${path}: ${page.slice(0, 200)}`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
    assert.match(page, /more fields than this service accepts/, path);
    const [line] = await lineOf(app.lines, `fields${path.replace(/\//g, '-')}`);
    assert.equal(line.res?.statusCode, 413);
  }
  assert.deepEqual(app.lines.filter((l) => l.level >= 50).map((l) => l.msg), [], 'no error-level line');
});
