// Owner verification on loopback stores: by meta tag, by the well-known file, refused when the token is absent
// or wrong (nothing stored), private addresses refused without SCAN_ALLOW_PRIVATE, several owners per host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testConfig } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { claimHost, verifyHost } from '../../monitoring/ownership.js';
import { startFixtureStore } from '../helpers/fixture-store.js';

async function setup(t: { after(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const db = new SqliteRepo(':memory:');
  await db.init();
  t.after(() => db.close());
  return { db, config: testConfig(env) };
}

const page = (head: string) => `<!doctype html><html><head><title>Shop</title>${head}</head><body><h1>Shop</h1></body></html>`;

test('a store verified by a meta tag on its homepage, another by /.well-known/store-readiness.txt', async (t) => {
  const deps = await setup(t);
  const metaStore = await startFixtureStore({});
  const fileStore = await startFixtureStore({});
  t.after(() => Promise.all([metaStore.close(), fileStore.close()]));

  const metaClaim = await claimHost(deps, 'acct_1', metaStore.url);
  assert.match(metaClaim.token, /^srv-[0-9a-f]{32}$/);
  assert.equal(metaClaim.host, `127.0.0.1:${metaStore.port}`);
  metaStore.setRoute('/', { body: page(`<meta name="store-readiness-verification" content="${metaClaim.token}">`) });
  const byMeta = await verifyHost(deps, 'acct_1', metaClaim.host);
  assert.equal(byMeta.verified, true);
  assert.equal(byMeta.verified && byMeta.method, 'meta');
  assert.equal(fileStore.hits('/.well-known/store-readiness.txt'), 0);

  const fileClaim = await claimHost(deps, 'acct_1', fileStore.url);
  fileStore.setRoute('/', { body: page('') });
  fileStore.setRoute('/.well-known/store-readiness.txt', { headers: { 'content-type': 'text/plain' }, body: `# ownership tokens\nsrv-someone-else\n  ${fileClaim.token}  \n` });
  const byFile = await verifyHost(deps, 'acct_1', fileClaim.host);
  assert.equal(byFile.verified && byFile.method, 'file');

  const owners = await deps.db.monitoring.verifiedClaims(fileClaim.host);
  assert.deepEqual(owners.map((o) => [o.accountId, o.method]), [['acct_1', 'file']]);
  assert.ok(owners[0].verifiedAt instanceof Date);

  // A second account claims the same host, gets its own token, and verifies it too.
  const second = await claimHost(deps, 'acct_2', fileStore.url);
  assert.notEqual(second.token, fileClaim.token);
  fileStore.setRoute('/.well-known/store-readiness.txt', { headers: { 'content-type': 'text/plain' }, body: `${fileClaim.token}\n${second.token}\n` });
  assert.equal((await verifyHost(deps, 'acct_2', fileClaim.host)).verified, true);
  assert.equal((await deps.db.monitoring.verifiedClaims(fileClaim.host)).length, 2);
});

test('an absent or wrong token is refused with a clear message and nothing is marked verified', async (t) => {
  const deps = await setup(t);
  const store = await startFixtureStore({ '/': { body: page('<meta name="store-readiness-verification" content="srv-not-yours">') } });
  t.after(() => store.close());
  const claim = await claimHost(deps, 'acct_1', store.url);
  const wrong = await verifyHost(deps, 'acct_1', claim.host);
  assert.equal(wrong.verified, false);
  assert.match(!wrong.verified ? wrong.message : '', /token was not found: the homepage has no matching store-readiness-verification meta tag in its <head>, and \/\.well-known\/store-readiness\.txt could not be read \(HTTP 404\)/);
  store.setRoute('/', { body: page('') });
  store.setRoute('/.well-known/store-readiness.txt', { headers: { 'content-type': 'text/plain' }, body: `prefix-${claim.token}\n` });
  assert.equal((await verifyHost(deps, 'acct_1', claim.host)).verified, false, 'the token must be a line of its own');
  assert.equal((await deps.db.monitoring.getClaim('acct_1', claim.host))?.verifiedAt, null);
  assert.deepEqual(await deps.db.monitoring.verifiedClaims(claim.host), []);
  await assert.rejects(verifyHost(deps, 'acct_other', claim.host), (err: unknown) => err instanceof AppError && err.code === 'NOT_FOUND');
});

test('without SCAN_ALLOW_PRIVATE a private or loopback store cannot be claimed, and nothing is stored', async (t) => {
  const deps = await setup(t, { SCAN_ALLOW_PRIVATE: '0' });
  for (const url of ['http://127.0.0.1:8080/', 'https://10.0.0.1/', 'http://[::1]/', 'https://169.254.169.254/', 'ftp://shop.example/']) {
    await assert.rejects(claimHost(deps, 'acct_1', url), (err: unknown) => err instanceof AppError && err.code === 'INVALID_URL', url);
  }
  assert.deepEqual(await deps.db.monitoring.listClaims('acct_1'), []);
});

test("the check follows the scanner's rules: a homepage redirecting to a private address is not followed", async (t) => {
  const deps = await setup(t, { SCAN_ALLOW_PRIVATE: '0' });
  const store = await startFixtureStore({ '/': { status: 302, headers: { location: 'http://10.0.0.1/' } } });
  t.after(() => store.close());
  // Claimed while private addresses were allowed (local development), then checked under production rules.
  const claim = await claimHost({ ...deps, config: testConfig() }, 'acct_1', store.url);
  const result = await verifyHost({ ...deps, allowIPAddressList: ['127.0.0.1'] }, 'acct_1', claim.host);
  assert.equal(result.verified, false);
  assert.match(!result.verified ? result.message : '', /homepage could not be read \(redirect to http:\/\/10\.0\.0\.1\/ refused/);
});

// Resolves every name to loopback, so one fixture store can play shop.test, www.shop.test and other hosts.
const loopback = (_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }]);

test('a soft-404 page quoting the token is not the well-known file: only a 2xx text/plain answer at the path counts', async (t) => {
  const deps = await setup(t);
  const store = await startFixtureStore({ '/': { body: page('') } });
  t.after(() => store.close());
  const claim = await claimHost(deps, 'acct_1', store.url);
  // A shop's "page not found" that lists recent reviews, one of which holds the token on a line of its own.
  store.setRoute('/.well-known/store-readiness.txt', { status: 200, body: `<!doctype html><title>Not found</title><p>Sorry, nothing here.</p><pre>Great shoes!\n${claim.token}\n</pre>` });
  const soft404 = await verifyHost(deps, 'acct_1', claim.host);
  assert.equal(soft404.verified, false);
  assert.match(!soft404.verified ? soft404.message : '', /answered text\/html, not text\/plain/);
  // The same text served from another path the file redirects to is not the file either.
  store.setRoute('/.well-known/store-readiness.txt', { status: 302, headers: { location: '/pages/help' } });
  store.setRoute('/pages/help', { headers: { 'content-type': 'text/plain' }, body: `${claim.token}\n` });
  const moved = await verifyHost(deps, 'acct_1', claim.host);
  assert.match(!moved.verified ? moved.message : '', /redirected to \/pages\/help, not the file itself/);
  assert.equal((await deps.db.monitoring.getClaim('acct_1', claim.host))?.verifiedAt, null);
  // The real file verifies.
  store.setRoute('/.well-known/store-readiness.txt', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `${claim.token}\n` });
  assert.equal((await verifyHost(deps, 'acct_1', claim.host)).verified, true);
});

test("a root redirecting to another site carrying the meta tag does not verify; a redirect to www. of the same host does", async (t) => {
  const deps = await setup(t);
  const other = await startFixtureStore({});
  const shop = await startFixtureStore({});
  t.after(() => Promise.all([other.close(), shop.close()]));
  const claim = await claimHost(deps, 'acct_1', shop.url);
  other.setRoute('/', { body: page(`<meta name="store-readiness-verification" content="${claim.token}">`) });
  other.setRoute('/.well-known/store-readiness.txt', { headers: { 'content-type': 'text/plain' }, body: `${claim.token}\n` });
  shop.setRoute('/', { status: 302, headers: { location: other.url } });
  shop.setRoute('/.well-known/store-readiness.txt', { status: 302, headers: { location: `${other.origin}/.well-known/store-readiness.txt` } });
  const result = await verifyHost(deps, 'acct_1', claim.host);
  assert.equal(result.verified, false);
  assert.match(!result.verified ? result.message : '', /homepage redirected to another site \(127\.0\.0\.1:\d+\).*store-readiness\.txt redirected to another site/);
  assert.equal((await deps.db.monitoring.getClaim('acct_1', claim.host))?.verifiedAt, null);

  // shop.test redirects to www.shop.test (the same host with www.), which carries the tag: verified.
  const named = await claimHost(deps, 'acct_1', `http://shop.test:${shop.port}/`);
  shop.setRoute('/', (req, res) => {
    if (req.headers.host?.startsWith('www.')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page(`<meta name="store-readiness-verification" content="${named.token}">`));
    } else {
      res.writeHead(301, { location: `http://www.shop.test:${shop.port}/` });
      res.end();
    }
  });
  const www = await verifyHost({ ...deps, lookup: loopback }, 'acct_1', named.host);
  assert.equal(www.verified && www.method, 'meta');
});

test('a meta tag in the body (here inside an <svg>) is page text, not the site\'s metadata, and does not verify', async (t) => {
  const deps = await setup(t);
  const store = await startFixtureStore({});
  t.after(() => store.close());
  const claim = await claimHost(deps, 'acct_1', store.url);
  const tag = `<meta name="store-readiness-verification" content="${claim.token}">`;
  store.setRoute('/', { body: `<!doctype html><html><head><title>Shop</title></head><body><h1>Reviews</h1><svg>${tag}</svg><div>${tag}</div></body></html>` });
  const inBody = await verifyHost(deps, 'acct_1', claim.host);
  assert.equal(inBody.verified, false);
  assert.match(!inBody.verified ? inBody.message : '', /homepage has no matching store-readiness-verification meta tag in its <head>/);
  store.setRoute('/', { body: page(tag) });
  assert.equal((await verifyHost(deps, 'acct_1', claim.host)).verified, true);
});
