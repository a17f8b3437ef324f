// Scans made from the home form before signing in, over real HTTP with real mail and a loopback fixture store:
// the sealed cookie the form sets, the overview's offer after sign-in, and the POST that adds them to the
// account; a tampered or foreign cookie shows nothing, a scan another account holds is never moved, and a
// refused POST changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startApp, type Answer, type TestApp } from '../helpers/start-app.js';
import { startInbox, type Inbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { type FixtureStore } from '../helpers/fixture-store.js';
import { startCompleteStore } from '../fixtures/stores.js';
import type { Request } from 'express';
import { SCANS_KEPT, scansBeforeSignIn } from '../../pages/console/scans-before-sign-in.js';
import { secretBoxFor } from '../../server/monitoring.js';

const SCANS_COOKIE = '__Host-sr_scans_before_sign_in'; // loopback BASE_URL: the __Host- name, as for the session

async function setup(t: test.TestContext): Promise<{ app: TestApp; inbox: Inbox; shop: FixtureStore }> {
  const shop = await startCompleteStore(t);
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  return { app, inbox, shop };
}

/** A browser's two cookies: the console client keeps the session, this the scans cookie. */
class Browser extends ConsoleClient {
  scans: string | null = null;

  private headers(extra: Record<string, string>): Record<string, string> {
    const jar = [this.cookie ? `${this.cookieName}=${this.cookie}` : '', this.scans ? `${SCANS_COOKIE}=${this.scans}` : ''].filter(Boolean);
    return { ...(jar.length ? { cookie: jar.join('; ') } : {}), ...extra };
  }

  private keepScans(a: Answer): Answer {
    const set = scansSetCookie(a);
    if (set) this.scans = /Expires=Thu, 01 Jan 1970/i.test(set) ? null : set.split(';')[0].slice(SCANS_COOKIE.length + 1);
    return a;
  }

  override async get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.keepScans(await super.get(path, this.headers(headers)));
  }

  override async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    return this.keepScans(await super.post(path, form, this.headers(headers)));
  }

  /** The home form's POST as a browser on this site sends it; the new scan's id. */
  async scan(url: string): Promise<number> {
    const done = await this.post('/scan', { url }, { 'sec-fetch-site': 'same-origin' });
    assert.equal(done.status, 303, done.text.slice(0, 300));
    return Number(/\/r\/(\d+)$/.exec(done.headers.get('location') ?? '')?.[1]);
  }
}

const scansSetCookie = (a: Answer): string | undefined => a.headers.getSetCookie().find((c) => c.startsWith(`${SCANS_COOKIE}=`));
const listedBefore = (page: string): number[] => {
  const section = /data-testid="scans-before-sign-in"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
  return [...section.matchAll(/data-scan-id="(\d+)"/g)].map((m) => Number(m[1]));
};
const ownedIds = async (app: TestApp, email: string): Promise<number[]> => {
  const account = await app.db.accounts.findAccountByEmail(email);
  return account ? (await app.db.accounts.scansOfAccount(account.id, { limit: 50 })).map((s) => s.id) : [];
};

test('scans from the home form before sign-in: a sealed cookie, listed after sign-in, added to the account by one POST', async (t) => {
  const { app, inbox, shop } = await setup(t);
  const browser = new Browser(app.url);
  const first = await browser.scan(`${shop.origin}/`);
  const set = scansSetCookie(await call(`${app.url}/scan`, {
    method: 'POST',
    body: new URLSearchParams({ url: `${shop.origin}/` }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
  }));
  assert.ok(set, 'the form sets the cookie');
  assert.match(set, /HttpOnly/i);
  assert.match(set, /SameSite=Lax/i);
  assert.match(set, /;\s*Secure/i);
  assert.match(set, /;\s*Path=\/(;|$)/);
  assert.match(set, /Max-Age=604800/);
  assert.doesNotMatch(set, /Domain=/i);
  assert.match(set.split(';')[0], /^[^=]+=v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/, 'sealed: no ids in clear');
  const second = await browser.scan(`${shop.origin}/`);
  assert.ok(browser.scans);

  // Signed out, the console is the sign-in page; signed in, the overview offers both scans.
  await browser.signIn(inbox, 'early@shop.test');
  const overview = await browser.get('/console');
  assert.equal(overview.status, 200);
  assert.match(overview.text, /Scans from this browser before you signed in/);
  assert.deepEqual(listedBefore(overview.text), [second, first]);
  assert.match(overview.text, /Add them to my account/);
  assert.deepEqual(await ownedIds(app, 'early@shop.test'), [], 'nothing is added until asked');

  const added = await browser.post('/console/scans/attach', { csrf: await browser.csrf('/console') });
  assert.equal(added.status, 303);
  assert.equal(added.headers.get('location'), '/console?attached=2');
  assert.match(scansSetCookie(added) ?? '', /Expires=Thu, 01 Jan 1970/i, 'the cookie is cleared');
  assert.equal(browser.scans, null);
  assert.deepEqual(await ownedIds(app, 'early@shop.test'), [second, first]);

  const after = await browser.get('/console?attached=2');
  assert.match(after.text, /class="alert alert-ok" role="status">2 scans from this browser are now in your account/);
  assert.deepEqual(listedBefore(after.text), []);
  const scansPage = await browser.get('/console/scans');
  for (const id of [first, second]) assert.match(scansPage.text, new RegExp(`data-scan-id="${id}"`));

  // Signed in, a new scan is the account's at once: no cookie.
  const signedInScan = await browser.post('/scan', { url: `${shop.origin}/` }, { 'sec-fetch-site': 'same-origin' });
  assert.equal(signedInScan.status, 303);
  assert.equal(scansSetCookie(signedInScan), undefined);
});

test('the cookie keeps the latest ten scans, the newest last', async (t) => {
  const { app, inbox, shop } = await setup(t);
  const browser = new Browser(app.url);
  const ids: number[] = [];
  for (let i = 0; i < SCANS_KEPT + 1; i++) ids.push(await browser.scan(`${shop.origin}/`));
  await browser.signIn(inbox, 'many@shop.test');
  assert.deepEqual(listedBefore((await browser.get('/console')).text), ids.slice(1).reverse());
  const added = await browser.post('/console/scans/attach', { csrf: await browser.csrf('/console') });
  assert.equal(added.headers.get('location'), `/console?attached=${SCANS_KEPT}`);
  assert.deepEqual(await ownedIds(app, 'many@shop.test'), ids.slice(1).reverse());
});

test('a tampered or foreign cookie shows nothing and adds nothing; a junk one is no error either', async (t) => {
  const { app, inbox, shop } = await setup(t);
  const browser = new Browser(app.url);
  const id = await browser.scan(`${shop.origin}/`);
  const genuine = browser.scans!;
  await browser.signIn(inbox, 'tamper@shop.test');

  // Another instance seals with its own key: its cookie does not open here.
  const other = await startApp(t, {}, { selfBaseUrl: true });
  const stranger = new Browser(other.url);
  await stranger.scan(`${shop.origin}/`);

  const flip = (s: string, i = s.lastIndexOf(':') + 2) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  for (const value of [flip(genuine), stranger.scans!, 'v1:AAAA:BBBB:CCCC', 'junk', '%E0%A4%A']) {
    browser.scans = value;
    const page = await browser.get('/console');
    assert.equal(page.status, 200, value);
    assert.deepEqual(listedBefore(page.text), [], value);
    const posted = await browser.post('/console/scans/attach', { csrf: await browser.csrf('/console') });
    assert.equal(posted.headers.get('location'), '/console?attached=0', value);
    assert.deepEqual(await ownedIds(app, 'tamper@shop.test'), [], value);
  }
  // The home page still scans with a cookie it cannot open, and starts a new list.
  browser.cookie = null;
  browser.scans = 'junk';
  const next = await browser.scan(`${shop.origin}/`);
  assert.notEqual(next, id);
  await browser.signIn(inbox, 'tamper@shop.test');
  assert.deepEqual(listedBefore((await browser.get('/console')).text), [next]);
});

test('a scan another account already holds is never moved', async (t) => {
  const { app, inbox, shop } = await setup(t);
  const browser = new Browser(app.url);
  const id = await browser.scan(`${shop.origin}/`);
  // The same cookie in a second browser (copied, or a shared computer): whoever adds first keeps the scan.
  const other = new Browser(app.url);
  other.scans = browser.scans;
  await other.signIn(inbox, 'first@shop.test');
  assert.equal((await other.post('/console/scans/attach', { csrf: await other.csrf('/console') })).headers.get('location'), '/console?attached=1');

  await browser.signIn(inbox, 'second@shop.test');
  assert.deepEqual(listedBefore((await browser.get('/console')).text), [], 'no longer offered');
  const posted = await browser.post('/console/scans/attach', { csrf: await browser.csrf('/console') });
  assert.equal(posted.headers.get('location'), '/console?attached=0');
  assert.match((await browser.get('/console?attached=0')).text, /Nothing was added: those scans were removed or already belong to an account/);
  assert.deepEqual(await ownedIds(app, 'first@shop.test'), [id]);
  assert.deepEqual(await ownedIds(app, 'second@shop.test'), []);
});

test('a POST from another site, without the CSRF token or signed out is refused and changes nothing', async (t) => {
  const { app, inbox, shop } = await setup(t);
  const browser = new Browser(app.url);
  const id = await browser.scan(`${shop.origin}/`);
  const cookie = browser.scans!;
  await browser.signIn(inbox, 'victim@shop.test');
  const csrf = await browser.csrf('/console');

  const refusals: [string, Record<string, string>, Record<string, string>][] = [
    ['another site', { csrf }, { origin: 'http://evil.test', 'sec-fetch-site': 'cross-site' }],
    ['a sibling site', { csrf }, { 'sec-fetch-site': 'same-site' }],
    ['no CSRF token', {}, {}],
    ['a wrong CSRF token', { csrf: `${csrf.slice(0, -1)}x` }, {}],
  ];
  for (const [why, form, headers] of refusals) {
    const refused = await browser.post('/console/scans/attach', form, headers);
    assert.equal(refused.status, 403, why);
    assert.match(refused.text, /Request refused/, why);
    assert.equal(scansSetCookie(refused), undefined, `${why}: the cookie stays`);
  }
  browser.cookie = null; // signed out: the sign-in page, nothing added to anyone
  const signedOut = await browser.post('/console/scans/attach', { csrf });
  assert.equal(signedOut.status, 303);
  assert.equal(signedOut.headers.get('location'), '/console/sign-in');
  assert.equal(browser.scans, cookie);
  assert.deepEqual(await ownedIds(app, 'victim@shop.test'), []);
  assert.equal((await app.db.accounts.unownedScans([id])).length, 1, 'the scan still belongs to no one');
});

test('the list the cookie holds opens for seven days after its last scan, then is no list', async (t) => {
  const { app, shop } = await setup(t);
  const browser = new Browser(app.url);
  const id = await browser.scan(`${shop.origin}/`);
  // The app's own box: SECRETS_KEY is unset here, so the key file it made in DATA_DIR.
  const deps = { box: secretBoxFor(app.config), config: app.config };
  const req = { headers: { cookie: `${SCANS_COOKIE}=${browser.scans}` } } as unknown as Request;
  const day = 24 * 60 * 60 * 1000;
  assert.deepEqual(scansBeforeSignIn(req, deps), [id]);
  assert.deepEqual(scansBeforeSignIn(req, deps, Date.now() + 7 * day - 60_000), [id]);
  assert.deepEqual(scansBeforeSignIn(req, deps, Date.now() + 7 * day + 60_000), [], 'a copy kept past its age');
  assert.deepEqual(scansBeforeSignIn(req, deps, Date.now() - day), [], 'written in the future: not ours');
});
