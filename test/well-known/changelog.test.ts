// GET /changelog.md: the repository's CHANGELOG.md, served as Markdown, naming the running version, and linked from
// llms.txt and the discovery document (breaking changes are announced there: docs/decisions.md "API").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { getJson, startApp } from '../helpers/start-app.js';
import { latestChangelogVersion } from '../../well-known/changelog.js';
import { SERVICE_VERSION } from '../../lib/version.js';

const SOURCE = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');

test('served as Markdown, public and cacheable, byte for byte the repository file', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/changelog.md`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/markdown; charset=utf-8/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.equal(await res.text(), SOURCE);
});

test('its newest entry is the running version, the one package.json and the discovery document name', () => {
  assert.match(SOURCE, /^# Changelog\n/);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(latestChangelogVersion(SOURCE), SERVICE_VERSION);
  assert.equal(pkg.version, SERVICE_VERSION);
  assert.equal(latestChangelogVersion('# Changelog\n\n## 2.1.0 — 2027-01-01\n\n## 2.0.0'), '2.1.0');
  assert.equal(latestChangelogVersion('# Changelog\n'), null);
});

test('llms.txt and the discovery document link it', async (t) => {
  const app = await startApp(t);
  const llms = await (await fetch(`${app.url}/llms.txt`)).text();
  assert.ok(llms.includes('- [Changelog](http://localhost:3000/changelog.md)'));
  assert.match(llms, /announced here and in the \[changelog\]\(http:\/\/localhost:3000\/changelog\.md\)/);
  const { body } = await getJson(`${app.url}/api/v1`);
  assert.equal(body.changelog, 'http://localhost:3000/changelog.md');
});

test('HEAD answers the headers without the body; other methods are a JSON 405', async (t) => {
  const app = await startApp(t);
  const head = await fetch(`${app.url}/changelog.md`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  const post = await getJson(`${app.url}/changelog.md`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.body.code, 'METHOD_NOT_ALLOWED');
});
