// The scanner's signing keys (bot-auth/keyring.ts) and their directory (bot-auth/directory.ts), checked by the
// independent verifier of test/helpers/web-bot-auth-verifier.ts: the first key is made once, sealed at rest; the
// directory's own signatures verify; after a rotation old and new signatures verify until the old key's last
// signature has expired, and the old key then leaves the directory.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { secretBox } from '../../monitoring/secrets.js';
import { ACTIVATION_DELAY_MS, createKeyring, RETIRED_KEY_LISTED_MS } from '../../bot-auth/keyring.js';
import { directoryAnswer, DIRECTORY_PATH } from '../../bot-auth/directory.js';
import { SIGNATURE_TTL_MS } from '../../outbound/request-signer.js';
import { verifyDirectory, verifyRequest, VerificationError, type Jwk } from '../helpers/web-bot-auth-verifier.js';

const BASE = 'https://readiness.example';
const STORE_URL = 'https://shop.example/products/kettle';

async function setup(t: { after(fn: () => unknown): void }) {
  const db = new SqliteRepo(':memory:');
  await db.init();
  t.after(() => db.close());
  let clock = Date.parse('2026-11-20T10:00:00Z');
  const box = secretBox(randomBytes(32));
  const warnings: string[] = [];
  const keyring = createKeyring({ keys: db.signingKeys, box, signatureAgent: BASE, now: () => new Date(clock), warn: (_o, m) => void warnings.push(m) });
  return {
    db,
    box,
    keyring,
    warnings,
    at: () => clock,
    advance: (ms: number) => void (clock += ms),
    /** The directory as a verifier gets it at the current time: its own signatures checked, its keys returned. */
    directory: async (): Promise<Jwk[]> => {
      const answer = await directoryAnswer(keyring, BASE, new Date(clock));
      const keys = (JSON.parse(answer.body) as { keys: Jwk[] }).keys;
      verifyDirectory(`${BASE}${DIRECTORY_PATH}`, answer.headers, keys, clock);
      return keys;
    },
  };
}

describe('the scanner\'s signing keys', () => {
  it('the first key is made once, even when instances ask at the same time, and its private half is sealed', async (t) => {
    const s = await setup(t);
    const other = createKeyring({ keys: s.db.signingKeys, box: s.box, signatureAgent: BASE, now: () => new Date(s.at()) });
    const [a, b] = await Promise.all([s.keyring.signer(), other.signer()]);
    assert.equal(a.keyId, b.keyId);
    const [stored] = await s.db.signingKeys.list();
    assert.equal((await s.db.signingKeys.list()).length, 1);
    assert.doesNotMatch(stored.sealedPrivateJwk, /"d"|"kty"/, 'nothing of the JWK in the clear');
    assert.match(stored.sealedPrivateJwk, /^v1:/);
    const keys = await s.directory();
    assert.deepEqual(verifyRequest(STORE_URL, a.headers(STORE_URL, new Date(s.at())), keys, s.at()), { keyId: a.keyId, agent: BASE });
  });

  it('the directory answers with its media type, and every key it lists signs it', async (t) => {
    const s = await setup(t);
    await s.keyring.signer();
    const answer = await directoryAnswer(s.keyring, BASE, new Date(s.at()));
    assert.equal(answer.headers['content-type'], 'application/http-message-signatures-directory+json');
    assert.match(answer.headers['cache-control'], /max-age=300/);
    assert.match(answer.headers['signature-input'], /^binding0=\("@authority";req\);created=\d+;keyid="[^"]+";alg="ed25519";expires=\d+;tag="http-message-signatures-directory"$/);
    const keys = (JSON.parse(answer.body) as { keys: Jwk[] }).keys;
    assert.deepEqual(Object.keys(keys[0]).sort(), ['crv', 'kid', 'kty', 'x'], 'public members only');
    assert.doesNotThrow(() => verifyDirectory(`${BASE}${DIRECTORY_PATH}`, answer.headers, keys, s.at()));
    assert.throws(() => verifyDirectory(`https://elsewhere.example${DIRECTORY_PATH}`, answer.headers, keys, s.at()), VerificationError, 'bound to our authority');
  });

  it('after a rotation, old and new signatures verify until the old key\'s last signature expires', async (t) => {
    const s = await setup(t);
    const old = await s.keyring.signer();
    s.advance(60_000);
    const rotated = await s.keyring.rotate();
    assert.equal(rotated.notBefore.getTime(), s.at() + ACTIVATION_DELAY_MS, 'published first, signing later');
    assert.equal((await s.directory()).length, 2, 'the new key is listed at once');
    assert.equal((await s.keyring.signer()).keyId, old.keyId, 'the old key still signs until the new one is due');

    s.advance(ACTIVATION_DELAY_MS - 1000);
    const lastOld = (await s.keyring.signer()).headers(STORE_URL, new Date(s.at()));
    s.advance(2000);
    const signer = await s.keyring.signer();
    assert.equal(signer.keyId, rotated.keyId);
    const firstNew = signer.headers(STORE_URL, new Date(s.at()));
    const keys = await s.directory();
    assert.equal(keys.length, 2);
    assert.equal(verifyRequest(STORE_URL, lastOld, keys, s.at()).keyId, old.keyId);
    assert.equal(verifyRequest(STORE_URL, firstNew, keys, s.at()).keyId, rotated.keyId);

    // Until the old key's last signature expires it stays listed; then it leaves the directory.
    s.advance(SIGNATURE_TTL_MS - 3000);
    assert.equal(verifyRequest(STORE_URL, lastOld, await s.directory(), s.at()).keyId, old.keyId);
    s.advance(RETIRED_KEY_LISTED_MS - SIGNATURE_TTL_MS + 3000);
    const after = await s.directory();
    assert.deepEqual(after.map((k) => k.x), keys.filter((k) => (k as Jwk & { kid: string }).kid === rotated.keyId).map((k) => k.x));
    assert.throws(() => verifyRequest(STORE_URL, lastOld, after, s.at()), VerificationError);
    assert.equal(verifyRequest(STORE_URL, signer.headers(STORE_URL, new Date(s.at())), after, s.at()).keyId, rotated.keyId);
  });

  it('rotate --now signs with the new key at once; the old one stays listed for its signatures', async (t) => {
    const s = await setup(t);
    const old = await s.keyring.signer();
    const sigOld = old.headers(STORE_URL, new Date(s.at()));
    const rotated = await s.keyring.rotate({ immediate: true });
    assert.equal((await s.keyring.signer()).keyId, rotated.keyId);
    assert.equal(verifyRequest(STORE_URL, sigOld, await s.directory(), s.at()).keyId, old.keyId);
  });

  it('a key sealed under another SECRETS_KEY is not used or listed: a new key is made, and a warning logged', async (t) => {
    const s = await setup(t);
    const first = await s.keyring.signer();
    const changed = createKeyring({ keys: s.db.signingKeys, box: secretBox(randomBytes(32)), signatureAgent: BASE, now: () => new Date(s.at()), warn: (_o, m) => void s.warnings.push(m) });
    const signer = await changed.signer();
    assert.notEqual(signer.keyId, first.keyId);
    assert.deepEqual((await changed.listed()).map((k) => k.record.keyId), [signer.keyId]);
    assert.match(s.warnings.join('\n'), /could not be opened with SECRETS_KEY/);
  });
});
