// GET / and the scan form (POST /scan) through the real app against loopback fixture stores: page content and
// headers, prefill, the 303 to the new report, and every failure re-rendered as this page in plain words with
// the error's own status (never raw JSON).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { AppError } from '../../lib/errors.js';
import { plainError } from '../../pages/home-page.js';

const FORM_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${url}/scan`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { accept: 'text/html', ...headers },
    redirect: 'manual',
  });
}

/** The alert of a re-rendered home page, as text. */
async function alertOf(res: Response): Promise<string> {
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(res.headers.get('content-security-policy'), FORM_CSP);
  const body = await res.text();
  assert.doesNotMatch(body, /^\s*\{/, 'not JSON');
  assert.match(body, /<form class="scan-form" method="post" action="\/scan">/, 'the form is shown again');
  const alert = /<div class="alert alert-error" role="alert" id="scan-error">([\s\S]*?)<\/div>/.exec(body)?.[1] ?? '';
  return alert.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('the home page explains the service, shows the form, the top 10 stores and the developer links', async (t) => {
  const app = await startApp(t);
  for (let i = 0; i < 12; i++) await saveFakeScan(app.db, { host: `s${String(i).padStart(2, '0')}.test`, score: 40 + i });
  const res = await fetch(`${app.url}/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-security-policy'), FORM_CSP);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  const body = await res.text();
  assert.match(body, /Can AI shopping agents buy from your store\?/);
  assert.match(body, /score out of 100, a grade from A to E/);
  assert.match(body, /<form class="scan-form" method="post" action="\/scan">/);
  assert.match(body, /<input id="url" name="url"/);
  assert.match(body, /<select id="vertical" name="vertical">/);
  const ranked = [...body.matchAll(/<a href="\/r\/\d+">(s\d\d\.test)<\/a>/g)].map((m) => m[1]);
  assert.equal(ranked.length, 10);
  assert.equal(ranked[0], 's11.test');
  assert.ok(!ranked.includes('s00.test') && !ranked.includes('s01.test'));
  for (const link of ['/api/v1', '/openapi.json', '/mcp', '/llms.txt', '/auth.md', '/.well-known/mcp/server-card.json']) {
    assert.ok(body.includes(`href="${link}"`), link);
  }
  // One script, from this origin (scan progress); nothing inline.
  assert.deepEqual(body.match(/<script[^>]*>/gi), [body.match(/<script src="\/assets\/scan\.js\?v=[0-9a-f]{12}">/)?.[0]]);
  assert.doesNotMatch(body, /style=|<script>/i);
});

test('?url= and ?vertical= prefill the form (escaped), and start nothing', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/?url=${encodeURIComponent('https://shop.test/"><script>x</script>')}&vertical=pets`);
  const body = await res.text();
  assert.ok(body.includes('value="https://shop.test/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"'));
  assert.match(body, /<option value="pets" selected>Pets<\/option>/);
  assert.doesNotMatch(body, /<script>/);
});

test('a scan from the form 303s to the new report, which shows the score', async (t) => {
  const fixture = await startFixtureStore({});
  t.after(() => fixture.close());
  for (const [path, route] of Object.entries(completeStore(fixture.origin))) fixture.setRoute(path, route);
  const app = await startApp(t);
  const res = await post(app.url, { url: fixture.url, vertical: 'apparel' });
  assert.equal(res.status, 303);
  const location = res.headers.get('location') ?? '';
  assert.match(location, /^\/r\/\d+$/);
  const report = await fetch(`${app.url}${location}`);
  assert.equal(report.status, 200);
  const body = await report.text();
  assert.ok(body.includes(`127.0.0.1:${fixture.port}`));
  assert.match(body, /data-testid="score">\d+</);
  assert.match(body, /Category: Apparel/);
});

test('form errors are the home page in plain words, with the error status', async (t) => {
  const app = await startApp(t);
  const empty = await post(app.url, { url: '' });
  assert.equal(empty.status, 400);
  assert.match(await alertOf(empty), /Enter your store’s address/);

  const js = await post(app.url, { url: 'javascript:alert(1)' });
  assert.equal(js.status, 400);
  const jsAlert = await alertOf(js);
  assert.match(jsAlert, /We can’t scan that address\. Only http and https URLs can be scanned/);
  assert.doesNotMatch(jsAlert, /INVALID_URL|"code"/);

  const creds = await post(app.url, { url: 'https://user:pw@shop.test/' });
  assert.equal(creds.status, 400);
  assert.match(await alertOf(creds), /credentials/);

  const vertical = await post(app.url, { url: 'https://shop.test', vertical: 'shoes' });
  assert.equal(vertical.status, 400);
  assert.match(await alertOf(vertical), /Choose a category from the list/);

  const crossSite = await post(app.url, { url: 'https://shop.test' }, { 'sec-fetch-site': 'cross-site' });
  assert.equal(crossSite.status, 403);
  assert.match(await alertOf(crossSite), /only be started from this site/);
  const foreign = await post(app.url, { url: 'https://shop.test' }, { origin: 'https://attacker.example' });
  assert.equal(foreign.status, 403);
  assert.match(await alertOf(foreign), /only be started from this site/);

  // The user's input comes back in the field, escaped.
  const kept = await post(app.url, { url: 'javascript:"><b>x' });
  assert.ok((await kept.text()).includes('value="javascript:&quot;&gt;&lt;b&gt;x"'));
});

test('an unreachable store and a store that never answers get their own plain-words messages', async (t) => {
  const port = await closedPort();
  const slow = await startFixtureStore({ '/': { delayMs: 5000, body: '<title>late</title>' } });
  t.after(() => slow.close());
  const app = await startApp(t, { SCAN_TIMEOUT_MS: '1000' });

  const unreachable = await post(app.url, { url: `http://127.0.0.1:${port}/` });
  assert.equal(unreachable.status, 502);
  const u = await alertOf(unreachable);
  assert.match(u, new RegExp(`We could not reach 127\\.0\\.0\\.1:${port}\\.`));
  assert.match(u, /Check the address/);

  const timeout = await post(app.url, { url: slow.url });
  assert.equal(timeout.status, 504);
  assert.match(await alertOf(timeout), /Your store took too long to answer/);
});

test('the scan limit applies to the form: past it, a 429 page says when to come back (L1)', async (t) => {
  const fixture = await startFixtureStore({});
  t.after(() => fixture.close());
  for (const [path, route] of Object.entries(completeStore(fixture.origin))) fixture.setRoute(path, route);
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '1' });
  const first = await post(app.url, { url: fixture.url });
  assert.equal(first.status, 303);
  const homeHits = fixture.hits('/');

  const second = await post(app.url, { url: fixture.url });
  assert.equal(second.status, 429);
  const retryAfter = Number(second.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600, String(retryAfter));
  const text = await alertOf(second);
  assert.match(text, /You have reached the scan limit for now/);
  assert.match(text, /You can scan again in/);
  assert.doesNotMatch(text, /RATE_LIMITED/);
  assert.equal(fixture.hits('/'), homeHits, 'the store is not contacted for a refused scan');

  // The API limiter and the form share one quota.
  const api = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(fixture.url)}`);
  assert.equal(api.status, 429);
});

test('form posts refused before a scan starts spend no scan quota (they are judged before the limiter)', async (t) => {
  const fixture = await startFixtureStore({});
  t.after(() => fixture.close());
  for (const [path, route] of Object.entries(completeStore(fixture.origin))) fixture.setRoute(path, route);
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '1' });
  const refused: [Record<string, string>, Record<string, string>, number][] = [
    [{ url: '' }, {}, 400],
    [{ url: 'javascript:alert(1)' }, {}, 400],
    [{ url: 'https://user:pw@shop.test/' }, {}, 400],
    [{ url: fixture.url, vertical: 'shoes' }, {}, 400],
    [{ url: fixture.url }, { 'sec-fetch-site': 'cross-site' }, 403],
    [{ url: fixture.url }, { 'sec-fetch-site': 'same-site' }, 403], // a sibling subdomain's form
    [{ url: fixture.url }, { origin: 'https://attacker.example' }, 403],
    [{ url: fixture.url }, { origin: 'null' }, 403],
    [{ url: fixture.url }, { authorization: 'Bearer srk_wrong' }, 401],
  ];
  for (const [fields, headers, status] of refused) {
    const res = await post(app.url, fields, headers);
    assert.equal(res.status, status, JSON.stringify(fields));
    assert.match(res.headers.get('ratelimit') ?? '', /"scan"; r=1;/, `${JSON.stringify(fields)}: nothing spent`);
    await res.arrayBuffer();
  }
  assert.equal(fixture.requests.length, 0);
  const scan = await post(app.url, { url: fixture.url });
  assert.equal(scan.status, 303, 'the hour\'s only scan is still there');
  assert.equal((await post(app.url, { url: fixture.url })).status, 429);
});

test('a failed scan names the next step: the certificate, the name, or signing in for a larger quota', () => {
  const unreachable = (why: string) => plainError(new AppError('STORE_UNREACHABLE', `The store could not be reached (${why}).`), { url: 'shop.example' });
  assert.match(unreachable('self-signed certificate').detail ?? '', /certificate could not be trusted/);
  assert.doesNotMatch(unreachable('self-signed certificate').detail ?? '', /typos/);
  assert.match(unreachable('getaddrinfo ENOTFOUND shop.example').detail ?? '', /does not resolve.*typos/);
  assert.match(unreachable('connect ECONNREFUSED 203.0.113.9:443').detail ?? '', /refused/);
  const limited = plainError(new AppError('RATE_LIMITED', 'Too many scans.', undefined, { 'Retry-After': '60' }), {});
  assert.match(limited.detail ?? '', /1 minute|60 seconds/);
  assert.deepEqual(limited.next, { href: '/console/sign-in', label: 'Sign in for a larger quota' });
});
