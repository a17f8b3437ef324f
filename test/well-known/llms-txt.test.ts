// GET /llms.txt: the site summary for agents, generated from the tools and the route table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { ROUTES } from '../../rest/routes.js';
import { TOOLS } from '../../tools/index.js';

async function fetchLlms(t: Parameters<typeof startApp>[0]) {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/llms.txt`);
  return { app, res, text: await res.text() };
}

test('plain text with an H1, a "> " summary, links, CORS * and a cache lifetime', async (t) => {
  const { res, text } = await fetchLlms(t);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  const lines = text.split('\n');
  assert.match(lines[0], /^# \S/);
  assert.match(lines[2], /^> \S/);
  assert.ok(text.length >= 50);
  assert.ok(/\[[^\]]+\]\(https?:\/\/[^)]+\)/.test(text), 'at least one Markdown link (Lighthouse llms.txt audit)');
});

test('says how agents should use the service: MCP first, reads only, scans for own stores, plain JSON POST', async (t) => {
  const { text } = await fetchLlms(t);
  assert.match(text, /## How agents should use this service/);
  assert.match(text, /http:\/\/localhost:3000\/mcp/);
  assert.match(text, /never contact or scan a store/);
  assert.match(text, /merchants auditing their own store/);
  assert.match(text, /only `Content-Type: application\/json`/);
});

test('lists every MCP tool, every REST route and links the machine-readable documents', async (t) => {
  const { text } = await fetchLlms(t);
  for (const tool of TOOLS.filter((x) => x.expose.includes('mcp'))) assert.match(text, new RegExp(`\`${tool.name}\``));
  for (const route of ROUTES) assert.ok(text.includes(`${route.method.toUpperCase()} /api/v1${route.path}`), route.path);
  for (const link of ['/openapi.json', '/api/v1/tools.json', '/api/v1/tools.json?format=anthropic', '/api/v1/tools.json?format=gemini', '/auth.md', '/.well-known/mcp/server-card.json']) {
    assert.ok(text.includes(`](http://localhost:3000${link})`), link);
  }
});

test('tells custom agents how each function-calling tool runs', async (t) => {
  const { text } = await fetchLlms(t);
  for (const tool of TOOLS.filter((x) => x.expose.includes('functions'))) assert.match(text, new RegExp(`\`${tool.name}\` runs as `));
  assert.match(text, /`check_merchant_readiness` runs as the MCP tool `check_merchant_readiness`/);
  if (TOOLS.some((x) => x.name === 'scan_store')) assert.match(text, /`scan_store` runs as GET \/api\/v1\/scan\./);
});

test('every document it links to exists', async (t) => {
  const { app, text } = await fetchLlms(t);
  const links = [...text.matchAll(/\]\(http:\/\/localhost:3000(\/[^)]*)\)/g)].map((m) => m[1]);
  const documents = links.filter((l) => !l.includes('example.com') && !l.includes('{'));
  assert.ok(documents.length >= 5);
  for (const path of new Set(documents)) {
    if (ROUTES.some((r) => path === `/api/v1${r.path}`)) continue; // tool routes (some POST or Pro): their own tests
    const res = await fetch(`${app.url}${path}`);
    assert.equal(res.status, 200, path);
  }
});

test('points agents at the Markdown versions of the pages and the API catalog', async (t) => {
  const { text } = await fetchLlms(t);
  assert.match(text, /send `Accept: text\/markdown` to \[the home page\]\(http:\/\/localhost:3000\/\), \[the readiness index\]\(http:\/\/localhost:3000\/index\)/);
  assert.ok(text.includes('- [API catalog](http://localhost:3000/.well-known/api-catalog)'));
});
