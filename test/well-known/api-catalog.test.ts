// GET /.well-known/api-catalog (RFC 9727): an RFC 9264 linkset naming the REST API and the MCP server with their
// descriptions, guides and status, every target reachable; and the Link header (RFC 8288) on /api/v1 pointing at it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, getJson, startApp } from '../helpers/start-app.js';

const BASE = 'http://localhost:3000';
const REL = /^([a-z][a-z0-9.-]*|[a-z][a-z0-9+.-]*:\S+)$/; // a registered relation name, or an extension URI

/** RFC 9264 §4.2 (application/linkset+json): {linkset: [context objects]}, each with an absolute `anchor` and
 *  relation-name members whose values are arrays of target objects with an `href` and optional target attributes. */
function assertLinkset(doc: unknown): asserts doc is { linkset: Record<string, any>[] } {
  assert.ok(doc && typeof doc === 'object' && !Array.isArray(doc));
  assert.deepEqual(Object.keys(doc), ['linkset']);
  const linkset = (doc as { linkset: unknown }).linkset;
  assert.ok(Array.isArray(linkset) && linkset.length > 0);
  for (const context of linkset) {
    assert.equal(typeof context.anchor, 'string');
    assert.equal(new URL(context.anchor).href, context.anchor, 'anchor is an absolute URI');
    for (const [rel, targets] of Object.entries(context)) {
      if (rel === 'anchor') continue;
      assert.match(rel, REL);
      assert.ok(Array.isArray(targets) && targets.length > 0, `${rel} is a non-empty array`);
      for (const target of targets as Record<string, unknown>[]) {
        assert.equal(typeof target.href, 'string', `${rel} target has an href`);
        assert.ok(new URL(target.href as string), 'href is an absolute URI');
        for (const [attr, value] of Object.entries(target)) {
          if (attr === 'hreflang') assert.ok(Array.isArray(value));
          else assert.equal(typeof value, 'string', `${rel}.${attr}`);
        }
      }
    }
  }
}

test('served as application/linkset+json with the RFC 9727 profile, public, cacheable, naming itself in Link', async (t) => {
  const app = await startApp(t);
  for (const method of ['GET', 'HEAD']) {
    const res = await call(`${app.url}/.well-known/api-catalog`, { method });
    assert.equal(res.status, 200, method);
    assert.equal(res.headers.get('content-type'), 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"; charset=utf-8');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(res.headers.get('link'), `<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
  }
});

test('a valid linkset: the REST API (OpenAPI, guides, status) and the MCP server (server card)', async (t) => {
  const app = await startApp(t);
  const { body } = await getJson(`${app.url}/.well-known/api-catalog`);
  assertLinkset(body);
  const [api, mcp] = body.linkset;
  assert.equal(api.anchor, `${BASE}/api/v1`);
  assert.deepEqual(api['service-desc'].map((l: { href: string }) => l.href), [
    `${BASE}/openapi.json`,
    `${BASE}/api/v1/tools.json`,
    `${BASE}/api/v1/tools.json?format=anthropic`,
    `${BASE}/api/v1/tools.json?format=gemini`,
  ]);
  assert.deepEqual(api['service-doc'].map((l: { href: string }) => l.href), [`${BASE}/llms.txt`, `${BASE}/auth.md`]);
  assert.deepEqual(api.status.map((l: { href: string }) => l.href), [`${BASE}/readyz`]);
  assert.equal(mcp.anchor, `${BASE}/mcp`);
  assert.deepEqual(mcp['service-desc'].map((l: { href: string }) => l.href), [`${BASE}/.well-known/mcp/server-card.json`]);
});

test('every target it names answers 200 with the type it announces', async (t) => {
  const app = await startApp(t);
  const { body } = await getJson(`${app.url}/.well-known/api-catalog`);
  const targets = body.linkset.flatMap((c: Record<string, unknown>) =>
    Object.entries(c).filter(([rel]) => rel !== 'anchor').flatMap(([, list]) => list as { href: string; type: string }[]),
  );
  for (const { href, type } of targets) {
    const res = await fetch(href.replace(BASE, app.url));
    assert.equal(res.status, 200, href);
    const served = res.headers.get('content-type') ?? '';
    // The OpenAPI document is JSON; its hint names the OpenAPI media type.
    assert.ok(served.startsWith(type === 'application/vnd.oai.openapi+json' ? 'application/json' : type), `${href}: ${served} vs ${type}`);
  }
});

test('the discovery document names the catalog, and /api/v1 and /api send Link headers to it, OpenAPI and llms.txt', async (t) => {
  const app = await startApp(t);
  for (const prefix of ['/api/v1', '/api']) {
    const res = await getJson(`${app.url}${prefix}`);
    assert.equal(res.body.api_catalog, `${BASE}/.well-known/api-catalog`);
    const link = res.headers.get('link') ?? '';
    assert.ok(link.includes(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`), link);
    assert.ok(link.includes(`<${BASE}/openapi.json>; rel="service-desc"`), link);
    assert.ok(link.includes(`<${BASE}/llms.txt>; rel="describedby"`), link);
  }
});
