// Every agent's door, through GET /api/v1/scan of loopback stores (docs/checks.md §13): a store that answers 403 to
// ChatGPT-User only; one that challenges every AI user fetcher and serves browsers; one that shows bots another
// price (cloaking); one that serves its products only to requests whose Web Bot Auth signature verifies against the
// key directory it fetches from the service (the independent verifier of test/helpers/web-bot-auth-verifier.ts); one
// that lets everyone in. Each is reported per agent, access_no_bot_wall follows, and the matrix's requests stay
// within its cap and two at a time, counted at the store.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it, before, after } from 'node:test';
import { getJson, startApp, type TestApp } from '../helpers/start-app.js';
import { signedRequests, startStoreFrom, unsignedRequests, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { CATALOGUE, completeStore, page, productHtml, wafStore } from '../fixtures/stores.js';
import { fetchDirectory, verifyRequest, type Jwk } from '../helpers/web-bot-auth-verifier.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import type { Agents } from '../../schemas/agents.js';
import { NEUTRAL_UA } from '../../outbound/fetch.js';

type Row = Agents['rows'][number];
const USER_FETCHERS = ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User'];
const AI_AGENTS = /ChatGPT-User|Claude|Perplexity|MistralAI|OAI-SearchBot|Googlebot|bingbot|Applebot|DuckAssistBot|GPTBot|CCBot|meta-externalagent|Bytespider|Amazonbot/i;
const HTML = 'text/html; charset=utf-8';

let app: TestApp;
before(async () => {
  app = await startApp(null, {}, { selfBaseUrl: true }); // BASE_URL is the app itself: stores fetch its key directory
});
after(() => app.close());

async function scanOf(build: (origin: string) => FixtureRoutes, t: { after(fn: () => unknown): void }): Promise<{ report: ScanResult; store: FixtureStore }> {
  const store = await startStoreFrom(build);
  t.after(() => store.close());
  const { status, body } = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
  return { report: body as ScanResult, store };
}

const rowOf = (r: ScanResult, agent: string): Row => r.agents!.rows.find((x) => x.agent === agent)!;
const check = (r: ScanResult, id: string) => r.pillars.flatMap((p) => p.checks).find((c) => c.id === id)!;
const ua = (req: IncomingMessage) => String(req.headers['user-agent'] ?? '');

/** Every route of `routes` wrapped: `gate` answers instead when it returns true. */
function gated(routes: FixtureRoutes, gate: (req: IncomingMessage, res: ServerResponse, path: string) => boolean): FixtureRoutes {
  const out: FixtureRoutes = {};
  for (const [path, route] of Object.entries(routes)) {
    out[path] = (req, res) => {
      if (gate(req, res, path)) return;
      if (typeof route === 'function') return route(req, res);
      res.writeHead(route.status ?? 200, { 'content-type': HTML, ...route.headers });
      res.end(route.body);
    };
  }
  return out;
}

const isPage = (path: string) => path === '/' || path.startsWith('/products/');

describe('the agents matrix through GET /api/v1/scan', () => {
  it('a store that answers 403 to ChatGPT-User only: that agent is named, the check fails without capping', async (t) => {
    const { report, store } = await scanOf(
      (origin) =>
        gated(completeStore(origin), (req, res, path) => {
          if (!isPage(path) || !/ChatGPT-User/.test(ua(req))) return false;
          res.writeHead(403, { 'content-type': HTML, server: 'nginx' });
          res.end('<title>403 Forbidden</title>');
          return true;
        }),
      t,
    );
    const chatgpt = rowOf(report, 'ChatGPT-User');
    assert.equal(chatgpt.got_page, false);
    assert.deepEqual([chatgpt.home?.status, chatgpt.product?.status], [403, 403]);
    for (const agent of USER_FETCHERS.slice(1)) assert.equal(rowOf(report, agent).got_page, true, agent);
    const wall = check(report, 'access_no_bot_wall');
    assert.equal(wall.status, 'fail');
    assert.match(wall.evidence, /ChatGPT-User: 403 \(server: nginx, title "403 Forbidden"\) on the home and product pages/);
    assert.doesNotMatch(wall.evidence, /Claude-User/);
    assert.equal(report.capped, false, 'one agent of four: no cap');
    assert.deepEqual(report.agents!.findings.map((f) => [f.id, f.agents]), [['agents_blocked', ['ChatGPT-User']]]);
    assert.ok(unsignedRequests(store).length <= app.config.AGENTS_MAX_REQUESTS);
  });

  it('a store that challenges every AI user fetcher and serves browsers: each is reported challenged, the score capped (H2)', async (t) => {
    const { report } = await scanOf(wafStore, t);
    for (const agent of USER_FETCHERS) {
      const row = rowOf(report, agent);
      assert.equal(row.home?.access, 'challenged', agent);
      assert.equal(row.product?.access, 'challenged', agent);
      assert.equal(row.got_page, false);
    }
    assert.equal(rowOf(report, 'Googlebot').got_page, true, 'search engines get in');
    assert.equal(report.agents!.baseline!.home!.access, 'served', 'a browser-like request gets the page');
    assert.equal(check(report, 'access_no_bot_wall').status, 'fail');
    assert.equal(report.capped, true);
    assert.equal(report.cap_reason, 'H2');
  });

  it('a store that shows bots another price: cloaking, per agent, partial with its fix', async (t) => {
    const cheaper = { ...CATALOGUE[0], price: '149.00' };
    const { report } = await scanOf(
      (origin) =>
        gated(completeStore(origin), (req, res, path) => {
          if (path !== `/products/${cheaper.slug}` || !AI_AGENTS.test(ua(req))) return false;
          res.writeHead(200, { 'content-type': HTML });
          res.end(productHtml(origin, cheaper));
          return true;
        }),
      t,
    );
    const chatgpt = rowOf(report, 'ChatGPT-User');
    assert.equal(chatgpt.got_page, true);
    assert.equal(chatgpt.same_facts, false);
    assert.deepEqual(chatgpt.product?.differences, ['price 149 EUR, not 189 EUR']);
    const wall = check(report, 'access_no_bot_wall');
    assert.equal(wall.status, 'partial');
    assert.match(wall.evidence, /Cloaking: .*ChatGPT-User: price 149 EUR, not 189 EUR on the product page/);
    const fix = report.top_fixes.find((f) => f.check_id === 'access_no_bot_wall');
    assert.match(fix?.how ?? '', /Serve agents the page you serve shoppers/);
    const cloaking = report.agents!.findings.find((f) => f.id === 'cloaking');
    assert.ok(cloaking?.agents.includes('Claude-User') && cloaking.agents.includes('OAI-SearchBot'), JSON.stringify(cloaking));
    assert.equal(report.agents!.note, null, 'a store that differs is asked by every crawler, not sampled');
  });

  it('a store that serves products only to requests whose signature verifies against our directory: signed gets in, unsigned agents do not', async (t) => {
    let keys: Jwk[] | null = null;
    const verified: string[] = [];
    const { report, store } = await scanOf(
      (origin) =>
        gated(completeStore(origin), (req, res, path) => {
          if (!path.startsWith('/products/')) return false;
          void (async () => {
            try {
              keys ??= await fetchDirectory(app.url); // the store fetches the key directory from the service, as a site would
              const { agent } = verifyRequest(`${origin}${req.url}`, req.headers, keys);
              verified.push(agent);
              const route = completeStore(origin)[req.url!.split('?')[0]];
              if (typeof route === 'function') return route(req, res);
              res.writeHead(200, { 'content-type': HTML });
              res.end(route.body);
            } catch {
              res.writeHead(403, { 'content-type': HTML });
              res.end('<title>Signed agents only</title>');
            }
          })();
          return true;
        }),
      t,
    );
    assert.ok(verified.length >= 1 && verified.every((a) => a === app.url), 'the scan\'s product requests verified');
    assert.equal(report.products.length > 0, true, 'the product page was read: the scan\'s own request is signed');
    const sig = report.agents!.signature;
    assert.deepEqual([sig.signing, sig.verdict, sig.signed_status, sig.unsigned_status, sig.signature_agent], [true, 'signed_only', 200, 403, app.url]);
    for (const agent of USER_FETCHERS) {
      const row = rowOf(report, agent);
      assert.deepEqual([row.home?.access, row.product?.access], ['served', 'blocked'], agent);
    }
    const wall = check(report, 'access_no_bot_wall');
    assert.equal(wall.status, 'partial');
    assert.match(wall.evidence, /Only signed requests get in: .*signed 200, unsigned with the same user-agent 403; unsigned agents refused too: ChatGPT-User, Claude-User, Perplexity-User, MistralAI-User/);
    assert.deepEqual(report.agents!.findings.map((f) => f.id), ['signed_agents_only']);
    assert.equal(report.capped, false);
    assert.ok(signedRequests(store).every((r) => r.headers['signature-agent'] === `sig1="${app.url}"`));
  });

  it('a store that lets everyone in: every agent asked gets the page with the same facts, crawlers sampled and said so', async (t) => {
    const { report, store } = await scanOf(completeStore, t);
    const agents = report.agents!;
    assert.equal(agents.status, 'checked');
    for (const agent of USER_FETCHERS) assert.deepEqual([rowOf(report, agent).got_page, rowOf(report, agent).same_facts], [true, true], agent);
    assert.match(agents.note ?? '', /^Sampled: the store answered the first agents as it answers a browser, so \d+ crawlers were not asked\.$/);
    assert.match(rowOf(report, 'Amazonbot').note ?? '', /sampled/);
    assert.equal(rowOf(report, 'Google-Extended').got_page, null, 'a robots.txt token only');
    assert.deepEqual(agents.findings, []);
    assert.equal(agents.signature.verdict, 'same');
    assert.equal(check(report, 'access_no_bot_wall').status, 'pass');
    assert.deepEqual(
      agents.rows.map((r) => r.kind),
      [...Array(4).fill('user_fetcher'), ...Array(7).fill('search_indexer'), ...Array(7).fill('training_crawler'), 'browser'],
      'grouped by kind',
    );
    assert.equal(agents.requests, unsignedRequests(store).length, 'the report counts what the store saw');
    assert.equal(agents.requests, 11, 'the product page unsigned, 4 user fetchers × 2 pages, 2 crawlers × 1 page');
    // Every matrix request says it is ours: the agent's user-agent, then our token and /bot; the browser-like ones are our own.
    for (const r of unsignedRequests(store)) {
      const userAgent = String(r.headers['user-agent']);
      assert.ok(userAgent.endsWith(` store-readiness-agents/1.0 (+${app.url}/bot)`) || userAgent === NEUTRAL_UA(app.url), userAgent);
    }
  });

  it('the matrix stays within its cap, two requests in flight at most, counted at the store', async (t) => {
    const capped = await startApp(t, { AGENTS_MAX_REQUESTS: '7' }, { selfBaseUrl: true });
    let inFlight = 0;
    let most = 0;
    const store = await startStoreFrom((origin) =>
      gated(wafStore(origin), (req, res, path) => {
        if (req.headers.signature || !isPage(path)) return false; // the matrix's requests are the unsigned ones
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          res.writeHead(200, { 'content-type': HTML });
          res.end(page('<title>Slow</title>').body);
        }, 40);
        return true;
      }),
    );
    t.after(() => store.close());
    const { status, body } = await getJson(`${capped.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
    assert.equal(status, 200);
    const agents = (body as ScanResult).agents!;
    assert.ok(unsignedRequests(store).length <= 7, `${unsignedRequests(store).length} matrix requests`);
    assert.equal(agents.max_requests, 7);
    assert.ok(agents.requests <= 7);
    assert.ok(most <= 2, `${most} in flight`);
    assert.ok(agents.rows.some((r) => /request cap/.test(r.note ?? '')), 'agents left out are said to be');
  });
});
