// Webhook secrets at rest and the monitoring settings: sealed with AES-256-GCM (bound to the endpoint), never
// in the store file in clear; SECRETS_KEY required in production; MONITOR, MONITOR_POLL_MS and the retry schedule
// validated like the rest of the configuration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, testConfig } from '../../lib/config.js';
import { addEndpoint } from '../../monitoring/endpoints.js';
import { newWebhookSecret, parseSecretsKey, secretBox } from '../../monitoring/secrets.js';
import { secretBoxFor } from '../../server/monitoring.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';

test('a sealed secret opens only with its key and its endpoint id; tampering is detected', () => {
  const box = secretBox(randomBytes(32));
  const secret = newWebhookSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const sealed = box.seal(secret, 'ep_1');
  assert.ok(!sealed.includes(secret.slice(6)));
  assert.equal(box.open(sealed, 'ep_1'), secret);
  assert.notEqual(box.seal(secret, 'ep_1'), sealed, 'a fresh IV every time');
  assert.throws(() => box.open(sealed, 'ep_2'), 'bound to its endpoint');
  assert.throws(() => secretBox(randomBytes(32)).open(sealed, 'ep_1'), 'another key');
  const [v, iv, tag, body] = sealed.split(':');
  const flipped = Buffer.from(body, 'base64');
  flipped[0] ^= 1;
  assert.throws(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'), 'ep_1'));
});

test('a sealed value with a truncated tag opens to nothing: the tag is pinned to 16 bytes', () => {
  const box = secretBox(randomBytes(32));
  const sealed = box.seal('scan ids', 'label');
  const [v, iv, tag, body] = sealed.split(':');
  assert.equal(Buffer.from(tag, 'base64').length, 16);
  // GCM would accept a 4-, 8- or 12-byte prefix of the right tag, which is far easier to guess than 16 bytes.
  for (const bytes of [4, 8, 12, 15]) {
    const short = Buffer.from(tag, 'base64').subarray(0, bytes).toString('base64');
    assert.throws(() => box.open([v, iv, short, body].join(':'), 'label'), `a ${bytes}-byte tag`);
  }
  assert.equal(box.open(sealed, 'label'), 'scan ids');
});

test('the store file never holds a webhook secret in clear', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'srk-secret-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = new SqliteRepo(join(dir, 'store.db'));
  await db.init();
  const { secret } = await addEndpoint({ db, config: testConfig(), box: secretBox(randomBytes(32)) }, 'acct_1', { url: 'https://hooks.example.com/x', events: ['scan.completed'] });
  await db.close();
  const key = secret.slice('whsec_'.length);
  for (const file of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, file));
    assert.equal(bytes.includes(key), false, `${file} holds the secret`);
    assert.equal(bytes.includes(Buffer.from(key, 'base64')), false, `${file} holds the key bytes`);
  }
});

test('SECRETS_KEY: required in production and with MongoDB; a valid one is used; locally a key file is made once, owner-only', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production' }), (err: unknown) => err instanceof ConfigError && /SECRETS_KEY: is required in production/.test(err.message));
  assert.throws(() => loadConfig({ SECRETS_KEY: 'short' }), /SECRETS_KEY: must be 32 bytes/);
  const key = randomBytes(32).toString('base64');
  assert.equal(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key, BASE_URL: 'https://readiness.example', SMTP_URL: 'smtp://u:p@mail.example' }).SECRETS_KEY, key);
  assert.equal(parseSecretsKey(randomBytes(32).toString('hex')).length, 32);
  assert.throws(() => secretBoxFor({ SECRETS_KEY: undefined, MONGODB_URI: 'mongodb://db.example', DATA_DIR: tmpdir() }), /SECRETS_KEY: is required with MONGODB_URI/);

  const dir = mkdtempSync(join(tmpdir(), 'srk-key-'));
  try {
    const a = secretBoxFor({ SECRETS_KEY: undefined, MONGODB_URI: undefined, DATA_DIR: join(dir, 'data') });
    const file = join(dir, 'data', 'secrets.key');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((statSync(join(dir, 'data')).mode & 0o777).toString(8), '700', 'DATA_DIR made owner-only here too, before the store opens');
    const b = secretBoxFor({ SECRETS_KEY: undefined, MONGODB_URI: undefined, DATA_DIR: join(dir, 'data') });
    assert.equal(b.open(a.seal('whsec_x', 'ep'), 'ep'), 'whsec_x', 'the same key after a restart');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('MONITOR, MONITOR_POLL_MS, WEBHOOK_RETRY_SCHEDULE and WEBHOOK_TIMEOUT_MS are validated', () => {
  const c = loadConfig({});
  assert.deepEqual([c.MONITOR, c.MONITOR_POLL_MS, c.WEBHOOK_TIMEOUT_MS], ['on', 15_000, 10_000]);
  assert.deepEqual(c.WEBHOOK_RETRY_SCHEDULE, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: ' 1s, 2m ,3h,1d' }).WEBHOOK_RETRY_SCHEDULE, [1000, 120_000, 10_800_000, 86_400_000]);
  assert.equal(loadConfig({ MONITOR: 'off' }).MONITOR, 'off');
  for (const [name, value] of [
    ['MONITOR', 'maybe'],
    ['MONITOR_POLL_MS', '0'],
    ['MONITOR_POLL_MS', 'soon'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,,5m'],
    ['WEBHOOK_RETRY_SCHEDULE', '500ms'],
    ['WEBHOOK_RETRY_SCHEDULE', '8d'],
    ['WEBHOOK_RETRY_SCHEDULE', '5x'],
    ['WEBHOOK_TIMEOUT_MS', '999999'],
  ]) {
    assert.throws(() => loadConfig({ [name]: value }), (err: unknown) => err instanceof ConfigError && err.message.includes(name), `${name}=${value}`);
  }
});
