// GET /robots.txt, read by the scanner's own RFC 9309 parser: public pages open to every agent (the live shopping
// agents named), a Content-Signal policy, the sitemap declared, and only starting a scan refused to crawlers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { LIVE_AGENT_TOKENS, parseRobots, SCANNER_TOKEN } from '../../scan/documents/robots.js';

async function fetchRobots(t: Parameters<typeof startApp>[0]) {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/robots.txt`);
  const body = await res.text();
  const info = parseRobots({
    ok: true,
    res: { requestedUrl: `${app.url}/robots.txt`, url: `${app.url}/robots.txt`, status: res.status, headers: {}, contentType: 'text/plain', body, ms: 1, redirects: [] },
  });
  return { res, body, info };
}

const OPEN = ['/', '/index', '/index?vertical=apparel', '/r/12', '/llms.txt', '/sitemap.xml', '/api/v1', '/api/v1/scan/12.json', '/api/scan/12.json', '/badge/shop.example.svg', '/verify/shop.example', '/.well-known/api-catalog'];
const CLOSED = ['/api/v1/scan?url=https://shop.example', '/api/v1/scan', '/api/scan?url=https://shop.example', '/api/scan', '/scan'];

test('plain text, public and cacheable, every line understood, a Content-Signal line and the sitemap', async (t) => {
  const { res, body, info } = await fetchRobots(t);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.equal(info.present, true);
  assert.equal(info.parseErrors, 0);
  assert.equal(info.contentSignal, true);
  assert.match(body, /^Content-Signal: search=yes, ai-input=yes, ai-train=no$/m);
  assert.deepEqual(info.sitemaps, ['http://localhost:3000/sitemap.xml']);
  assert.ok(Buffer.byteLength(body) < 500 * 1024);
});

test('the live shopping agents have their own group and may fetch every public page', async (t) => {
  const { info } = await fetchRobots(t);
  for (const token of LIVE_AGENT_TOKENS) {
    assert.ok(info.groups.includes(token.toLowerCase()), token);
    for (const path of OPEN) assert.equal(info.isAllowed(token, path), true, `${token} ${path}`);
  }
});

test('starting a scan is refused to every crawler; reading a stored report is not', async (t) => {
  const { info } = await fetchRobots(t);
  for (const agent of [...LIVE_AGENT_TOKENS, 'Googlebot', 'GPTBot', SCANNER_TOKEN, 'SomeCrawler']) {
    for (const path of CLOSED) assert.equal(info.isAllowed(agent, path), false, `${agent} ${path}`);
    for (const path of OPEN) assert.equal(info.isAllowed(agent, path), true, `${agent} ${path}`);
  }
});
