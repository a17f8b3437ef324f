// The scanner says what it does: a loopback store records the User-Agent of every request one scan makes (raw
// fetches and the browser view's Chromium), each names the scanner and /bot, and the counts stay within what /bot
// states, read from the page itself (the requests a root scan makes as each AI agent included).
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { completeStore } from '../fixtures/stores.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import type { ScanResult } from '../../schemas/scan-result.js';

let renderer: ChromiumRenderer | null = null;
before(() => {
  renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 1 });
});
after(() => renderer?.close());

const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const testId = (page: string, id: string) => decode(new RegExp(`data-testid="${id}">([^<]*)<`).exec(page)?.[1] ?? '');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('every request of a scan names the scanner and /bot, and the counts hold to what /bot states', async (t) => {
  if (!chromiumAvailable(t)) return;
  const store = await startStoreFrom(completeStore);
  t.after(() => store.close());
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] }, renderer: renderer ?? undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200);
  const report = res.body as ScanResult;
  assert.equal(report.browser_view?.status, 'rendered', report.browser_view?.note);

  const bot = await fetch(`${app.url}/bot`).then((r) => r.text());
  const neutral = testId(bot, 'ua-neutral');
  const probe = testId(bot, 'ua-probe');
  const browser = new RegExp(`^${escapeRegExp(testId(bot, 'ua-browser')).replace('<version>', '[0-9.]+')}$`);
  const rawMax = Number(testId(bot, 'raw-requests'));
  const browserMax = Number(testId(bot, 'browser-requests'));
  const productPages = Number(testId(bot, 'browser-product-pages'));
  const agentsMax = Number(testId(bot, 'agents-requests'));
  const agentUas = new Set([...bot.matchAll(/data-testid="ua-agent">([^<]*)</g)].map((m) => decode(m[1])));
  assert.ok(rawMax > 0 && browserMax > 0 && productPages > 0 && agentsMax > 0, 'the page states its counts');
  assert.ok(agentUas.size > 0, 'the page lists the agents\' strings');

  const botLink = `+${app.config.BASE_URL}/bot`;
  const uas = store.requests.map((r) => String(r.headers['user-agent'] ?? ''));
  assert.ok(uas.length > 0);
  for (const [i, ua] of uas.entries()) {
    assert.ok(ua.includes('store-readiness') && ua.includes(botLink), `${store.requests[i].method} ${store.requests[i].path}: ${ua}`);
    assert.ok(ua === neutral || ua === probe || browser.test(ua) || agentUas.has(ua), `a User-Agent /bot does not show: ${ua}`);
  }
  // A root scan also asks as each AI agent: every such request is one /bot lists, within the cap it states.
  const asAgents = store.requests.filter((r) => agentUas.has(String(r.headers['user-agent'])));
  assert.ok(asAgents.length > 0 && asAgents.length <= agentsMax, `${asAgents.length} requests as AI agents, /bot says at most ${agentsMax}`);
  // The matrix asks a page once more unsigned, in the scanner's own name, to tell the signature's effect from the
  // agent's: that request is the matrix's (its cap, its count), not the scan's; the scan's own raw requests are signed.
  const scanners = store.requests.filter((r) => r.headers['user-agent'] === neutral || r.headers['user-agent'] === probe);
  const raw = scanners.filter((r) => r.headers.signature !== undefined);
  const unsignedTwins = scanners.filter((r) => r.headers.signature === undefined);
  assert.equal(asAgents.length + unsignedTwins.length, report.agents?.requests, 'the report counts every request the matrix made');
  assert.ok(report.agents!.requests <= agentsMax, `${report.agents!.requests} matrix requests, /bot says at most ${agentsMax}`);
  assert.ok(unsignedTwins.length <= 1, `unsigned twins: ${unsignedTwins.map((r) => r.path).join(', ')}`);
  const rendered = store.requests.filter((r) => browser.test(String(r.headers['user-agent'])));
  assert.ok(raw.length <= rawMax, `${raw.length} raw requests, /bot says at most ${rawMax}`);
  assert.equal(raw.length, report.fetched.length, 'the report lists every raw request');
  assert.ok(rendered.length > 0 && rendered.length <= browserMax, `${rendered.length} browser requests, /bot says at most ${browserMax}`);
  const documents = rendered.filter((r) => r.headers['sec-fetch-dest'] === 'document').map((r) => r.path);
  assert.ok(documents.length <= 1 + productPages, `pages opened: ${documents.join(', ')}`);
  assert.equal(new Set(documents).size, report.browser_view!.pages.length);
  // What the browser loaded besides the pages (images here): told on /bot, and counted in the report.
  assert.ok(rendered.some((r) => r.headers['sec-fetch-dest'] === 'image'), 'the browser loads images, as /bot says');
  assert.match(bot, /scripts, styles, images, fonts and the requests the scripts make/);
  assert.ok(report.browser_view!.requests.made >= rendered.length);

  // llms.txt says the same, with the same numbers.
  const llms = await fetch(`${app.url}/llms.txt`).then((r) => r.text());
  assert.match(llms, new RegExp(`at most ${rawMax} requests, no scripts\\).*up to ${productPages} of those product pages with scripts on.*at most ${browserMax} requests per scan`));
});
