// The console's form parser and session lookup run on console paths only: a badge or a report page sent with a
// session cookie neither looks the session up nor answers with a Set-Cookie (a badge is publicly cached).
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { SESSION_COOKIE } from '../../lib/same-site.js';

test('a dead session cookie is cleared on a console page and left alone everywhere else', async (t) => {
  const app = await startApp(t);
  const cookie = `${SESSION_COOKIE}=no-such-session`;
  const consolePage = await fetch(`${app.url}/console/sign-in`, { headers: { cookie } });
  await consolePage.arrayBuffer();
  assert.match(consolePage.headers.get('set-cookie') ?? '', new RegExp(`^${SESSION_COOKIE}=;`));
  for (const path of ['/badge/shop.example.com.svg', '/', '/index', '/r/1']) {
    const res = await fetch(`${app.url}${path}`, { headers: { cookie } });
    await res.arrayBuffer();
    assert.equal(res.headers.get('set-cookie'), null, path);
  }
});
