// GET /auth.md: anonymous vs Pro, which endpoints need a key, the configured limits, 401/429 handling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { ROUTES } from '../../rest/routes.js';

test('markdown, public and cacheable, with the Bearer scheme and the MCP exception', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/auth.md`);
  const text = await res.text();
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.match(text, /^# /);
  assert.match(text, /Authorization: Bearer <API_KEY>/);
  assert.match(text, /MCP endpoint needs no authentication/);
  assert.match(text, /## Anonymous use/);
  assert.match(text, /## Pro API keys/);
});

test('names every route with its auth mode, Pro-only ones marked', async (t) => {
  const app = await startApp(t);
  const text = await (await fetch(`${app.url}/auth.md`)).text();
  for (const route of ROUTES) {
    const line = text.split('\n').find((l) => l.includes(`\`${route.method.toUpperCase()} /api/v1${route.path}\``));
    assert.ok(line, route.path);
    if (route.auth === 'pro') assert.match(line, /Pro key required/);
    if (route.auth === 'none') assert.match(line, /no key/);
  }
});

test('the limits are the configured values, not prose', async (t) => {
  const app = await startApp(t, {
    ANON_SCANS_PER_HOUR: '7',
    PRO_SCANS_PER_HOUR: '31',
    PRO_SCANS_PER_30_DAYS: '1234',
    ANON_READS_PER_MINUTE: '222',
    PRO_READS_PER_MINUTE: '4444',
  });
  const text = await (await fetch(`${app.url}/auth.md`)).text();
  assert.match(text, /\| Scans \| 7 per hour \| 31 per hour, and 1234 per rolling 30 days \|/);
  assert.match(text, /\| 222 per minute \| 4444 per minute \|/);
});

test('explains 401 and 429 handling with Retry-After and the RateLimit headers', async (t) => {
  const app = await startApp(t);
  const text = await (await fetch(`${app.url}/auth.md`)).text();
  assert.match(text, /## Handling 401/);
  assert.match(text, /UNAUTHORIZED/);
  assert.match(text, /WWW-Authenticate/);
  assert.match(text, /## Handling 429/);
  assert.match(text, /RATE_LIMITED/);
  assert.match(text, /Retry-After/);
  assert.match(text, /RateLimit-Policy/);
  assert.match(text, /`RateLimit`/);
});

test('says how keys are obtained: in the console after an e-mail sign-in, or from the operator with keys create', async (t) => {
  const app = await startApp(t);
  const text = await (await fetch(`${app.url}/auth.md`)).text();
  assert.ok(text.includes(`${app.config.BASE_URL}/console/sign-in`));
  assert.ok(text.includes(`${app.config.BASE_URL}/console/keys`));
  assert.match(text, /\*\*Create key\*\*/);
  assert.match(text, /`store-readiness keys create --owner <your e-mail>`/);
  // The pages it names exist.
  assert.equal((await fetch(`${app.url}/console/sign-in`)).status, 200);
  assert.equal((await fetch(`${app.url}/console/keys`, { redirect: 'manual' })).status, 303);
});
