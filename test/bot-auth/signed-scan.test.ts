// Signed scans through the running service: GET /api/v1/scan of a loopback store whose every request is recorded,
// each signature checked by the independent verifier against the key directory fetched from the service itself
// (BASE_URL is its loopback address). SIGN_REQUESTS=off sends none and serves no directory. The command line
// rotates the key in the same store.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startApp, getJson } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { DIRECTORY_PATH, fetchDirectory, verifyRequest } from '../helpers/web-bot-auth-verifier.js';
import { NEUTRAL_UA } from '../../outbound/fetch.js';
import { runCli } from '../../server/cli.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';

describe('signed scans (Web Bot Auth)', () => {
  it('every request of a scan in the scanner\'s own name carries a signature that verifies against our directory', async (t) => {
    const app = await startApp(t, { AGENTS_MAX_REQUESTS: '0' }, { selfBaseUrl: true });
    const store = await startStoreFrom(completeStore);
    t.after(() => store.close());
    const { status } = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
    assert.equal(status, 200);
    const keys = await fetchDirectory(app.url);
    assert.equal(keys.length, 1);
    const ours = store.requests.filter((r) => r.headers['user-agent'] === NEUTRAL_UA(app.url));
    assert.ok(ours.length >= 10, `${ours.length} requests`);
    for (const r of store.requests) {
      assert.ok(r.headers.signature, `${r.method} ${r.path} is signed`);
      const verdict = verifyRequest(`${store.origin}${r.path}`, r.headers, keys);
      assert.equal(verdict.agent, app.url);
    }
  });

  it('SIGN_REQUESTS=off: no signature on any request, and no key directory', async (t) => {
    const app = await startApp(t, { SIGN_REQUESTS: 'off', AGENTS_MAX_REQUESTS: '0' }, { selfBaseUrl: true });
    const store = await startStoreFrom(completeStore);
    t.after(() => store.close());
    assert.equal((await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`)).status, 200);
    assert.ok(store.requests.length > 0);
    assert.ok(store.requests.every((r) => !r.headers.signature && !r.headers['signature-input'] && !r.headers['signature-agent']));
    assert.equal((await fetch(`${app.url}${DIRECTORY_PATH}`)).status, 404);
    assert.equal(await app.db.signingKeys.list().then((k) => k.length), 0, 'no key is made when signing is off');
  });

  it('the command line rotates the key; the directory then lists both, each signing it', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'srk-keys-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const out: string[] = [];
    const io = { out: (s: string) => void out.push(s), err: (s: string) => void out.push(s) };
    const env = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
    assert.equal(await runCli(['signing-key', 'rotate'], env, io), 0);
    assert.match(out.at(-1)!, /^New signing key \S+ \(generation 2\): listed in the key directory now, signing from /);
    assert.equal(await runCli(['signing-key', 'list'], env, io), 0);
    assert.match(out.at(-2)!, /^1 {2}\S+ {2}created \S+ {2}signing$/);
    assert.match(out.at(-1)!, /^2 {2}\S+ {2}created \S+ {2}signs from /);
    assert.equal(await runCli(['signing-key', 'rotate', '--now'], env, io), 0);
    assert.equal(await runCli(['signing-key', 'spin'], env, io), 2);

    const db = new SqliteRepo(join(dir, 'store.db'));
    const app = await startApp(t, { DATA_DIR: dir }, { selfBaseUrl: true, db });
    const keys = await fetchDirectory(app.url);
    assert.equal(keys.length, 3, 'the first two are still listed: their signatures have not expired');
  });
});
