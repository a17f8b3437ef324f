// Deprecation as data (docs/decisions.md "API"), proven with a row that exists only in this test: nothing real is
// deprecated. The row's `deprecated` field gives Deprecation (RFC 9745) and Sunset (RFC 8594) headers and a
// successor-version link on every answer, `deprecated: true` in OpenAPI, and a note in the discovery document and
// llms.txt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { call, getJson, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { ROUTES, integerParam, type RouteDef } from '../../rest/routes.js';
import { checkDeprecation } from '../../rest/deprecation.js';
import { discoveryDocument } from '../../rest/discovery.js';
import { getScan } from '../../tools/get-scan.js';

const LEGACY: RouteDef = {
  method: 'get',
  path: '/legacy-scan/{scan_id}.json',
  summary: 'A stored scan result under its old path',
  tool: getScan,
  auth: 'none',
  limit: 'read',
  errors: ['SCAN_NOT_FOUND', 'INVALID_PARAMS'],
  args: (req) => ({ scan_id: integerParam(req.params.scan_id, 'scan_id') }),
  deprecated: { since: '2026-06-01', sunset: '2026-12-01', successor: '/api/v1/scan/{scan_id}.json' },
};

const withLegacy = (t: Parameters<typeof startApp>[0]) => startApp(t, {}, { routes: [...ROUTES, LEGACY] });

test('nothing real is deprecated (spec §9.4), and the discovery document says so', () => {
  assert.deepEqual(ROUTES.filter((r) => r.deprecated).map((r) => r.path), []);
  const doc = discoveryDocument('http://localhost:3000');
  assert.deepEqual(doc.versioning.deprecated, []);
  assert.ok(doc.endpoints.every((e) => !('deprecated' in e)));
});

test('a deprecated row answers with Deprecation, Sunset and a successor-version link, on both prefixes', async (t) => {
  const app = await withLegacy(t);
  const scan = await saveFakeScan(app.db, { host: 'shop.test', score: 70 });
  for (const prefix of ['/api/v1', '/api']) {
    const res = await call(`${app.url}${prefix}/legacy-scan/${scan.scan_id}.json`);
    assert.equal(res.status, 200, prefix);
    assert.equal(res.body.scan_id, scan.scan_id);
    assert.equal(res.headers.get('deprecation'), `@${Date.UTC(2026, 5, 1) / 1000}`);
    assert.equal(res.headers.get('sunset'), 'Tue, 01 Dec 2026 00:00:00 GMT');
    const link = res.headers.get('link') ?? '';
    assert.ok(link.includes(`<http://localhost:3000/api/v1/scan/${scan.scan_id}.json>; rel="successor-version"`), link);
    assert.ok(link.includes('<http://localhost:3000/changelog.md>; rel="deprecation"; type="text/markdown"'), link);
  }
  // The successor answers the same data, without the headers.
  const successor = await call(`${app.url}/api/v1/scan/${scan.scan_id}.json`);
  assert.equal(successor.status, 200);
  assert.equal(successor.headers.get('deprecation'), null);
  assert.equal(successor.headers.get('sunset'), null);
});

test('errors of a deprecated endpoint carry the headers too', async (t) => {
  const app = await withLegacy(t);
  const missing = await call(`${app.url}/api/v1/legacy-scan/999.json`);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.code, 'SCAN_NOT_FOUND');
  assert.ok(missing.headers.get('deprecation'));
  assert.ok(missing.headers.get('sunset'));
});

test('OpenAPI marks the operation deprecated, documents the headers, and stays valid', async (t) => {
  const app = await withLegacy(t);
  const { body } = await getJson(`${app.url}/openapi.json`);
  const op = body.paths['/api/v1/legacy-scan/{scan_id}.json'].get;
  assert.equal(op.deprecated, true);
  assert.match(op.description, /^Deprecated since 2026-06-01; it keeps working until 2026-12-01/);
  assert.deepEqual(Object.keys(op.responses['200'].headers).filter((h) => ['Deprecation', 'Sunset', 'Link'].includes(h)), ['Deprecation', 'Sunset', 'Link']);
  assert.equal(body.paths['/api/v1/scan/{scan_id}.json'].get.deprecated, undefined);
  const result = await new Validator().validate(body);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test('the discovery document and llms.txt carry the note', async (t) => {
  const app = await withLegacy(t);
  const { body } = await getJson(`${app.url}/api/v1`);
  const entry = body.endpoints.find((e: { path: string }) => e.path === '/api/v1/legacy-scan/{scan_id}.json');
  assert.deepEqual(entry.deprecated, LEGACY.deprecated);
  assert.deepEqual(body.versioning.deprecated, [{ method: 'GET', path: '/api/v1/legacy-scan/{scan_id}.json', ...LEGACY.deprecated }]);
  const llms = await (await fetch(`${app.url}/llms.txt`)).text();
  const line = llms.split('\n').find((l) => l.startsWith('- `GET /api/v1/legacy-scan/{scan_id}.json`'));
  assert.match(line ?? '', /\*\*Deprecated since 2026-06-01; it keeps working until 2026-12-01, then it is removed\. Use \/api\/v1\/scan\/\{scan_id\}\.json instead\.\*\*/);
  assert.match(llms, /Deprecated endpoints \(they answer with Deprecation and Sunset headers until removed\): GET \/api\/v1\/legacy-scan\/\{scan_id\}\.json\./);
});

test('a sunset less than 6 months after the deprecation, or a malformed date, stops the app at start-up', async () => {
  const bad = (deprecated: RouteDef['deprecated']) => () => checkDeprecation({ ...LEGACY, deprecated });
  assert.throws(bad({ since: '2026-06-01', sunset: '2026-11-30', successor: '/api/v1/scan' }), /at least 6 months/);
  assert.throws(bad({ since: '2026-02-30', sunset: '2026-12-01', successor: '/api/v1/scan' }), /calendar date/);
  assert.throws(bad({ since: '2026-06-01', sunset: '2026-12-01', successor: 'https://elsewhere.example/' }), /path of this service/);
  assert.doesNotThrow(bad({ since: '2026-06-01', sunset: '2026-12-01', successor: '/api/v1/scan' }));
  await assert.rejects(
    startApp(null, {}, { routes: [...ROUTES, { ...LEGACY, deprecated: { since: '2026-06-01', sunset: '2026-07-01', successor: '/api/v1/scan' } }] }),
    /at least 6 months/,
  );
});
