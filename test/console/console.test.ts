// The console over real HTTP with real mail (smtp-server on loopback, read with mailparser): the sign-in flow
// and its headers, and every documented refusal, each checked to change nothing stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { call, startApp, type TestApp } from '../helpers/start-app.js';
import { startInbox, type Inbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { saveFakeScan } from '../helpers/scans.js';
import { sha256Hex } from '../../accounts/secrets.js';

async function setup(t: test.TestContext, env: Record<string, string> = {}): Promise<{ app: TestApp; inbox: Inbox; client: ConsoleClient }> {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, ...env }, { selfBaseUrl: true });
  return { app, inbox, client: new ConsoleClient(app.url) };
}

const activeKeys = async (app: TestApp, email: string) => {
  const account = await app.db.accounts.findAccountByEmail(email);
  return account ? (await app.db.accounts.listAccountKeys(account.id)).filter((k) => !k.revokedAt).length : 0;
};

test('sign-in by mailed link: same answer for any address, confirm page names it, POST signs in with a hardened cookie', async (t) => {
  const { app, inbox, client } = await setup(t);
  const first = await client.get('/console');
  assert.equal(first.status, 303);
  assert.equal(first.headers.get('location'), '/console/sign-in');

  const form = await client.get('/console/sign-in');
  assert.match(form.text, /Send sign-in link/);
  assert.equal(form.headers.get('cache-control'), 'no-store');
  const csp = form.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);

  const a = await client.post('/console/sign-in', { email: 'Merchant@Shop.test' });
  await app.db.accounts.ensureAccount('known@shop.test', new Date(), 'acct_known');
  const b = await client.post('/console/sign-in', { email: 'known@shop.test' });
  assert.equal(a.status, 200);
  assert.equal(a.text, b.text, 'the answer never tells who has an account');
  assert.match(a.text, /if this address can sign in, a link is on its way/i);

  const mail = await inbox.next('merchant@shop.test');
  const link = /http:\/\/\S+\/console\/sign-in\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
  assert.ok(link, mail.text);
  assert.ok(link[0].startsWith(`${app.url}/console/sign-in/confirm?token=`));

  // Opening the link twice (a mail scanner, then the person) signs nobody in and uses nothing.
  for (let i = 0; i < 2; i++) {
    const confirm = await client.get(new URL(link[0]).pathname + new URL(link[0]).search);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Sign in as merchant@shop\.test\?/);
    assert.equal(confirm.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(confirm.headers.getSetCookie().length, 0);
  }
  assert.equal(await app.db.accounts.findAccountByEmail('merchant@shop.test'), null, 'no account before the POST');

  const done = await client.confirm(link[0], 'merchant@shop.test');
  assert.equal(done.status, 303);
  assert.equal(done.headers.get('location'), '/console');
  const cookie = done.headers.getSetCookie().find((c) => c.startsWith('__Host-sr_session='))!;
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.match(cookie, /Path=\//);
  assert.match(cookie, /;\s*Secure/i, 'loopback http: browsers take Secure cookies there, as __Host- needs');
  assert.doesNotMatch(cookie, /Domain=/i);
  assert.ok(await app.db.accounts.findAccountByEmail('merchant@shop.test'), 'first sign-in created the account');

  const overview = await client.get('/console');
  assert.equal(overview.status, 200);
  assert.match(overview.text, /merchant@shop\.test/);

  // Secrets are stored only hashed: neither the session id nor the mailed token is in the database files.
  const files = readdirSync(app.dataDir).map((f) => readFileSync(join(app.dataDir, f)).toString('latin1')).join('');
  assert.ok(!files.includes(client.cookie!), 'session id stored only as its hash');
  assert.ok(!files.includes(link[1]), 'token stored only as its hash');
});

test('refusals: reused, expired and other-address tokens, confirm by GET', async (t) => {
  const { app, inbox, client } = await setup(t);
  const link = await client.requestLink(inbox, 'a@shop.test');

  // Another address with this token: refused, and the token still works for its own address.
  const other = await client.confirm(link, 'b@shop.test');
  assert.equal(other.status, 400);
  assert.match(other.text, /does not work/);
  assert.equal(client.cookie, null);
  assert.equal(await app.db.accounts.findAccountByEmail('b@shop.test'), null);

  assert.equal((await client.confirm(link, 'a@shop.test')).status, 303);
  const signedInAs = client.cookie;
  client.cookie = null;
  const reused = await client.confirm(link, 'a@shop.test');
  assert.equal(reused.status, 400, 'a used token');
  assert.equal(client.cookie, null, 'no new session');
  assert.ok(signedInAs);

  // An expired token (stored as it would be, 16 minutes ago) signs nobody in and creates no account.
  const token = 'e'.repeat(43);
  const past = Date.now() - 16 * 60_000;
  await app.db.accounts.putSignInToken({ tokenHash: sha256Hex(token), email: 'late@shop.test', returnTo: null, createdAt: new Date(past), expiresAt: new Date(past + 15 * 60_000) });
  const expired = await client.post('/console/sign-in/confirm', { token, email: 'late@shop.test' });
  assert.equal(expired.status, 400);
  assert.equal(await app.db.accounts.findAccountByEmail('late@shop.test'), null);
  assert.equal((await client.get(`/console/sign-in/confirm?token=${token}`)).status, 400);
});

test('refusals: a POST from another site or without the CSRF token changes nothing (403)', async (t) => {
  const { app, inbox, client } = await setup(t);
  await client.signIn(inbox, 'c@shop.test');
  const csrf = await client.csrf();
  const crossOrigin = await client.post('/console/keys', { csrf, name: 'x' }, { origin: 'http://evil.test' });
  assert.equal(crossOrigin.status, 403);
  assert.match(crossOrigin.text, /only be sent from this site/);
  const crossSite = await client.post('/console/keys', { csrf, name: 'x' }, { 'sec-fetch-site': 'cross-site' });
  assert.equal(crossSite.status, 403);
  const noToken = await client.post('/console/keys', { name: 'x' });
  assert.equal(noToken.status, 403);
  const wrongToken = await client.post('/console/keys', { name: 'x', csrf: csrf.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) });
  assert.equal(wrongToken.status, 403);
  assert.equal(await activeKeys(app, 'c@shop.test'), 0, 'no key was created');
  const signInFromElsewhere = await client.post('/console/sign-in', { email: 'c@shop.test' }, { origin: 'http://evil.test' });
  assert.equal(signInFromElsewhere.status, 403);
  // Deleting from another site: refused, the account is still there.
  const del = await client.post('/console/account/delete', { csrf, confirm: 'c@shop.test' }, { origin: 'http://evil.test' });
  assert.equal(del.status, 403);
  assert.ok(await app.db.accounts.findAccountByEmail('c@shop.test'));
});

test('refusals: the 6th sign-in mail for one address in an hour is a 429 page with Retry-After, and sends nothing', async (t) => {
  const { inbox, client } = await setup(t);
  for (let i = 0; i < 5; i++) assert.equal((await client.post('/console/sign-in', { email: 'many@shop.test' })).status, 200);
  const sixth = await client.post('/console/sign-in', { email: 'many@shop.test' });
  assert.equal(sixth.status, 429);
  const retry = Number(sixth.headers.get('retry-after'));
  assert.ok(retry > 0 && retry <= 3600, `Retry-After ${retry}`);
  assert.match(sixth.text, /Too many sign-in mails/);
  assert.equal(inbox.messages.length, 5);
});

test('refusals: sub-addresses count with their mailbox, so box+1…+7@ gets 5 mails, then a 429 page', async (t) => {
  const { inbox, client } = await setup(t);
  const statuses: number[] = [];
  for (let i = 1; i <= 7; i++) statuses.push((await client.post('/console/sign-in', { email: `box+${i}@shop.test` })).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  assert.equal(inbox.messages.length, 5);
  assert.equal((await client.post('/console/sign-in', { email: 'box@shop.test' })).status, 429, 'the mailbox itself has had its mails');
  assert.equal((await client.post('/console/sign-in', { email: 'other+1@shop.test' })).status, 200, 'another mailbox is not affected');
});

test('refusals: addresses with bidi, invisible or control characters, or a non-ASCII local part, are refused and mailed nothing', async (t) => {
  const { app, inbox, client } = await setup(t);
  const hostile = [
    'admin\u202E@shop.test', // right-to-left override: shows as another address
    'ad\u200Bmin@shop.test', // zero-width space
    'admin@sh\u2066op.test', // isolate inside the domain
    'admin\u0007@shop.test', // a control character
    'adm\u00EDn@shop.test', // non-ASCII local part
    'admin@shop.test\u200D',
  ];
  for (const email of hostile) {
    const res = await client.post('/console/sign-in', { email });
    assert.equal(res.status, 400, JSON.stringify(email));
    assert.match(res.text, /Enter an e-mail address/);
    assert.doesNotMatch(res.text, /\u202E|\u200B|\u2066|\u200D|\u0007/u, 'no hidden character comes back on the page');
  }
  assert.equal(inbox.messages.length, 0);
  assert.equal(await app.db.accounts.findAccountByEmail('admin@shop.test'), null);
  // An international domain is fine, in its IDNA form.
  assert.equal((await client.post('/console/sign-in', { email: 'Owner@Bücher.test' })).status, 200);
  const link = await inbox.nextLink('owner@bücher.test'); // the mail parser shows the domain decoded
  assert.equal((await client.confirm(link, 'owner@xn--bcher-kva.test')).status, 303);
  assert.ok(await app.db.accounts.findAccountByEmail('owner@xn--bcher-kva.test'), 'the account holds the IDNA form');
});

test('refusals: 20 mails per client address an hour', async (t) => {
  const { inbox, client } = await setup(t, { SIGN_IN_MAILS_PER_IP_PER_HOUR: '3' });
  for (let i = 0; i < 3; i++) assert.equal((await client.post('/console/sign-in', { email: `ip${i}@shop.test` })).status, 200);
  assert.equal((await client.post('/console/sign-in', { email: 'ip9@shop.test' })).status, 429);
  assert.equal(inbox.messages.length, 3);
});

test('refusals: an 11th active key is refused with a clear message; a revoked one frees a place', async (t) => {
  const { app, inbox, client } = await setup(t);
  await client.signIn(inbox, 'keys@shop.test');
  const csrf = await client.csrf();
  for (let i = 0; i < 10; i++) assert.equal((await client.post('/console/keys', { csrf, name: `k${i}` })).status, 201);
  const eleventh = await client.post('/console/keys', { csrf, name: 'k10' });
  assert.equal(eleventh.status, 409);
  assert.match(eleventh.text, /at most 10 active keys/);
  assert.doesNotMatch(eleventh.text, /srk_/, 'no key shown');
  assert.equal(await activeKeys(app, 'keys@shop.test'), 10);
  const account = (await app.db.accounts.findAccountByEmail('keys@shop.test'))!;
  const victim = (await app.db.accounts.listAccountKeys(account.id))[0].keyId;
  const confirmPage = await client.get(`/console/keys/${victim}/revoke`);
  assert.match(confirmPage.text, /Revoke key/);
  assert.equal(await activeKeys(app, 'keys@shop.test'), 10, 'the confirmation page revokes nothing');
  assert.equal((await client.post(`/console/keys/${victim}/revoke`, { csrf })).status, 303);
  assert.equal((await client.post('/console/keys', { csrf, name: 'again' })).status, 201);
});

test('refusals: a session cookie after sign-out (and after sign-out everywhere) opens nothing', async (t) => {
  const { app, inbox, client } = await setup(t);
  await client.signIn(inbox, 'out@shop.test');
  const csrf = await client.csrf();
  const old = client.cookie!;
  assert.equal((await client.post('/console/sign-out', { csrf })).status, 303);
  client.cookie = old; // someone kept the cookie
  const page = await client.get('/console/keys');
  assert.equal(page.status, 303);
  assert.match(page.headers.get('location') ?? '', /^\/console\/sign-in/);
  client.cookie = old;
  const create = await client.post('/console/keys', { csrf, name: 'late' });
  assert.equal(create.status, 303);
  assert.equal(await activeKeys(app, 'out@shop.test'), 0);

  // Everywhere: two browsers signed in, one ends both.
  const second = new ConsoleClient(app.url);
  await client.signIn(inbox, 'out@shop.test');
  await second.signIn(inbox, 'out@shop.test');
  const secondCookie = second.cookie!;
  assert.equal((await client.post('/console/sign-out-everywhere', { csrf: await client.csrf() })).status, 303);
  second.cookie = secondCookie;
  assert.equal((await second.get('/console')).status, 303);
});

test('a mail that cannot be sent: a page that says so, with no token in it', async (t) => {
  const { inbox, client } = await setup(t);
  inbox.refuseAll();
  const sent = await client.post('/console/sign-in', { email: 'down@shop.test' });
  assert.equal(sent.status, 503);
  assert.match(sent.text, /could not send the mail/);
  assert.doesNotMatch(sent.text, /token=/);
});

test('Pro in the browser: the brief link signs in first and comes back; a session counts only from this site', async (t) => {
  const { app, inbox, client } = await setup(t);
  const report = await saveFakeScan(app.db, { host: 'brief.test', score: 64 });
  const id = report.scan_id;
  const out = await client.get(`/console/brief/${id}`);
  assert.equal(out.status, 303);
  assert.equal(out.headers.get('location'), `/console/sign-in?next=${encodeURIComponent(`/console/brief/${id}`)}`);
  const link = await client.requestLink(inbox, 'brief@shop.test', `/console/brief/${id}`);
  const done = await client.confirm(link, 'brief@shop.test');
  assert.equal(done.headers.get('location'), `/console/brief/${id}`);
  const back = await client.get(`/console/brief/${id}`);
  assert.equal(back.status, 200, 'signed in, the brief is a page');
  assert.match(back.text, new RegExp(`<a class="button button-primary" href="/api/v1/scan/${id}/brief.md" download="agent-brief-${id}.md">`));
  assert.match(back.text, /<article class="card brief" data-testid="brief"><h1>/);
  assert.equal((await client.get('/console/brief/999999')).status, 404);
  const brief = await client.get(`/api/v1/scan/${id}/brief.md`, { 'sec-fetch-site': 'same-origin' });
  assert.equal(brief.status, 200);
  assert.match(brief.headers.get('content-type') ?? '', /markdown/);
  const cross = await client.get(`/api/v1/scan/${id}/brief.md`, { 'sec-fetch-site': 'cross-site' });
  assert.equal(cross.status, 401);
  assert.equal(cross.body.code, 'UNAUTHORIZED');
  const noCookie = await call(`${app.url}/api/v1/scan/${id}/brief.md`, { headers: { 'sec-fetch-site': 'same-origin' } });
  assert.equal(noCookie.status, 401);
  // The report page's button goes through the console.
  const page = await call(`${app.url}/r/${id}`);
  assert.match(page.text, new RegExp(`href="/console/brief/${id}"`));
});

test('deleting the account: confirmation needed; then keys answer 401, sessions end, scans stay public', async (t) => {
  const { app, inbox, client } = await setup(t);
  await client.signIn(inbox, 'gone@shop.test');
  const csrf = await client.csrf();
  const created = await client.post('/console/keys', { csrf, name: 'ci' });
  const key = /value="(srk_[^"]+)"/.exec(created.text)![1];
  const account = (await app.db.accounts.findAccountByEmail('gone@shop.test'))!;
  const report = await saveFakeScan(app.db, { host: 'kept.test', score: 70 });
  await app.db.saveScan({ ...(await app.db.getScan(report.scan_id))!, id: await app.db.allocateScanId(), ownerAccountId: account.id });

  const wrong = await client.post('/console/account/delete', { csrf, confirm: 'someone@shop.test' });
  assert.equal(wrong.status, 400);
  assert.ok(await app.db.accounts.getAccount(account.id), 'not deleted without the right confirmation');
  assert.equal((await call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"hosts":["kept.test"]}' })).status, 200);

  const old = client.cookie;
  const del = await client.post('/console/account/delete', { csrf, confirm: 'gone@shop.test' });
  assert.equal(del.status, 200);
  assert.match(del.text, /account is deleted/);
  assert.equal(await app.db.accounts.getAccount(account.id), null);
  const after = await call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"hosts":["kept.test"]}' });
  assert.equal(after.status, 401);
  client.cookie = old;
  assert.equal((await client.get('/console')).status, 303);
  assert.equal((await call(`${app.url}/api/v1/scan/${report.scan_id}.json`)).status, 200, 'scans stay public');
});

test('a scan from the home form while signed in runs on the Pro quota and lands on the scans page', async (t) => {
  const { startCompleteStore } = await import('../fixtures/stores.js');
  const shop = await startCompleteStore(t);
  const { app, inbox, client } = await setup(t, { ANON_SCANS_PER_HOUR: '0' });
  await client.signIn(inbox, 'form@shop.test');
  const home = await client.get('/');
  assert.match(home.text, /Signed in as form@shop\.test: your scans use your Pro quota/);
  assert.equal(home.headers.get('cache-control'), 'private, no-store');
  assert.doesNotMatch((await call(`${app.url}/`)).text, /Signed in as/);
  const scanned = await client.post('/scan', { url: `${shop.origin}/` }, { 'sec-fetch-site': 'same-origin' });
  assert.equal(scanned.status, 303, scanned.text.slice(0, 300));
  const id = Number(/\/r\/(\d+)$/.exec(scanned.headers.get('location') ?? '')?.[1]);
  assert.match(scanned.headers.get('ratelimit') ?? '', /"scan"; r=29/);
  const page = await client.get('/console/scans');
  assert.match(page.text, new RegExp(`data-scan-id="${id}"`));
  // The same form from another site is not the signed-in person: anonymous, and here anonymous gets no scans.
  const forged = await client.post('/scan', { url: `${shop.origin}/` }, { 'sec-fetch-site': 'cross-site', origin: 'http://evil.test' });
  assert.notEqual(forged.status, 303);
  const account = (await app.db.accounts.findAccountByEmail('form@shop.test'))!;
  assert.equal((await app.db.accounts.scansOfAccount(account.id, { limit: 50 })).length, 1);
});

test('an https BASE_URL makes the session cookie __Host-sr_session, Secure, host-only; a bare sr_session cookie opens nothing', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, BASE_URL: 'https://ready.example' });
  const client = new ConsoleClient(app.url);
  const link = await client.requestLink(inbox, 'secure@shop.test');
  assert.ok(link.startsWith('https://ready.example/console/sign-in/confirm?token='));
  const done = await client.confirm(link, 'secure@shop.test');
  const cookie = done.headers.getSetCookie().find((c) => c.startsWith('__Host-sr_session='));
  assert.ok(cookie, done.headers.getSetCookie().join(' | '));
  assert.match(cookie, /;\s*Secure/i);
  assert.match(cookie, /;\s*Path=\/(;|$)/);
  assert.doesNotMatch(cookie, /Domain=/i);
  assert.equal((await client.get('/console')).status, 200, 'the session works under its new name');
  // A cookie a sibling subdomain can set (Domain=.ready.example) cannot carry the __Host- prefix: the bare name,
  // even holding a live session id, is not the session.
  const planted = await call(`${app.url}/console`, { headers: { cookie: `sr_session=${client.cookie}` } });
  assert.equal(planted.status, 303);
  assert.match(planted.headers.get('location') ?? '', /^\/console\/sign-in/);
});

test('a plain-http BASE_URL off loopback keeps a bare, non-Secure sr_session cookie (a __Host- one would be dropped)', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl, BASE_URL: 'http://console.internal:3000' });
  const client = new ConsoleClient(app.url);
  const link = await client.requestLink(inbox, 'plain@shop.test');
  const done = await client.confirm(link, 'plain@shop.test');
  const cookie = done.headers.getSetCookie().find((c) => c.startsWith('sr_session='));
  assert.ok(cookie, done.headers.getSetCookie().join(' | '));
  assert.doesNotMatch(cookie, /Secure/i);
  const overview = await call(`${app.url}/console`, { headers: { cookie: cookie.split(';')[0] } });
  assert.equal(overview.status, 200);
});

test('the scans page: 50 a page newest first, older pages by keyset, host filter, change against the previous scan', async (t) => {
  const { app, inbox, client } = await setup(t);
  await client.signIn(inbox, 'pages@shop.test');
  const account = (await app.db.accounts.findAccountByEmail('pages@shop.test'))!;
  const ids: number[] = [];
  for (let i = 0; i < 55; i++) {
    const id = await app.db.allocateScanId();
    await app.db.saveScan({
      id, host: i % 5 === 0 ? 'five.test' : `h${i}.test`, vertical: null, score: 40 + i, grade: 'C', capped: false, agentReady: false,
      createdAt: new Date(Date.now() - (55 - i) * 60_000), ownerKeyId: null, ownerAccountId: account.id, report: { id },
    });
    ids.push(id);
  }
  const rowsOf = (text: string) => [...text.matchAll(/data-scan-id="(\d+)"/g)].map((m) => Number(m[1]));
  const first = await client.get('/console/scans');
  assert.deepEqual(rowsOf(first.text), ids.slice(5).reverse());
  const older = /rel="next" href="([^"]+)"/.exec(first.text)![1].replace(/&amp;/g, '&');
  const second = await client.get(older);
  assert.deepEqual(rowsOf(second.text), ids.slice(0, 5).reverse());
  assert.doesNotMatch(second.text, /rel="next"/);
  const five = await client.get('/console/scans?host=https%3A%2F%2Fwww.Five.test%2Fshop');
  assert.deepEqual(rowsOf(five.text), ids.filter((_, i) => i % 5 === 0).reverse());
  assert.match(five.text, /class="delta-up">\+5</, 'each scan of five.test is 5 points above the one before');
  assert.match(five.text, /first scan/);
  // Another account sees none of them.
  const stranger = new ConsoleClient(app.url);
  await stranger.signIn(inbox, 'stranger@shop.test');
  assert.deepEqual(rowsOf((await stranger.get('/console/scans')).text), []);
});

test('sending the create-key form again (a reload of the page showing the key) makes no second key', async (t) => {
  const { app, inbox, client } = await setup(t);
  await client.signIn(inbox, 'reload@shop.test');
  const page = await client.get('/console/keys');
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1];
  const request = /name="request" value="([^"]+)"/.exec(page.text)![1];
  assert.equal((await client.post('/console/keys', { csrf, request, name: 'once' })).status, 201);
  const again = await client.post('/console/keys', { csrf, request, name: 'once' });
  assert.equal(again.status, 409);
  assert.match(again.text, /already sent/);
  assert.doesNotMatch(again.text, /id="new-key-value"/);
  assert.equal(await activeKeys(app, 'reload@shop.test'), 1);
});
