// The service passes its own audit: the real app on a loopback port, with BASE_URL its own address, scanned by the
// real scanner through its own GET /api/v1/scan. A service is not a store, so only the checks a non-store can earn
// are held to full marks: agent access (response time included), robots.txt, sitemap, llms.txt, Link headers, the MCP server card, the API
// catalog and Markdown for agents (asked of the homepage, since there is no product page). The MCP server card must be
// found through the AI Catalog, as current MCP clients find it.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { assertWithin } from '../helpers/timing.js';

const FULL_MARKS = [
  'access_storefront_reachable',
  'access_live_agents_robots',
  'access_no_bot_wall',
  'access_indexable',
  'access_ai_policy_declared',
  'discovery_robots_txt',
  'discovery_sitemap',
  'discovery_llms_txt',
  'discovery_link_headers',
  'protocol_mcp_server_card',
  'protocol_api_catalog',
  'protocol_markdown',
];

interface Check {
  id: string;
  status: string;
  points: number;
  max: number;
  evidence: string;
}

test('scanned by its own scanner, the service gets full marks wherever a non-store can earn them', async (t) => {
  const app = await startApp(t, {}, { selfBaseUrl: true });
  await saveFakeScan(app.db, { host: 'shop.test', score: 72, vertical: 'pets' }); // a listed store: the index, sitemap and home show it

  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(`${app.url}/`)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const checks = new Map<string, Check>(res.body.pillars.flatMap((p: { checks: Check[] }) => p.checks).map((c: Check) => [c.id, c]));
  for (const id of FULL_MARKS) {
    const c = checks.get(id);
    assert.ok(c, id);
    assert.equal(c.status, 'pass', `${id}: ${c.evidence}`);
    assert.equal(c.points, c.max, id);
  }
  // access_response_time passes under 1.5 s for the homepage: ten times what a loopback answer of this app
  // should take even on a busy machine, so its verdict is held too.
  const timing = checks.get('access_response_time');
  const homeMs = Number(/homepage (\d+) ms/.exec(timing?.evidence ?? '')?.[1] ?? NaN);
  assertWithin('homepage answer to the scanner', homeMs, 150);
  assert.equal(timing?.status, 'pass', timing?.evidence);

  assert.equal(res.body.capped, false);
  assert.match(checks.get('protocol_markdown')!.evidence, /^No product page found, so the homepage was asked: .* → 200 text\/markdown/);
  assert.match(checks.get('discovery_sitemap')!.evidence, /Declared sitemap .*\/sitemap\.xml .* is a valid <urlset>/);
  // The card is found the way current MCP clients look for it: through the AI Catalog.
  assert.match(
    checks.get('protocol_mcp_server_card')!.evidence,
    /\/mcp\/server-card \(found through the AI Catalog http:\/\/127\.0\.0\.1:\d+\/\.well-known\/ai-catalog\.json\): "127\.0\.0\.1\/store-readiness" at http:\/\/127\.0\.0\.1:\d+\/mcp\./,
  );
  for (const flag of ['llms_txt', 'markdown_negotiation', 'api_catalog', 'content_signals', 'mcp_server_card']) {
    assert.equal(res.body.protocols[flag], true, flag);
  }
  assert.deepEqual(res.body.protocols.agents_blocked, []);

  // The stored self-report is itself a page agents can read as Markdown.
  const md = await fetch(`${app.url}/r/${res.body.scan_id}`, { headers: { accept: 'text/markdown' } });
  assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.match((await md.text()).split('\n')[0], new RegExp(`^# 127\\.0\\.0\\.1:\\d+: ${res.body.score}/100, grade ${res.body.grade}$`));
});
