// GET /openapi.json: a valid OpenAPI 3.1 document generated from the route table, the tools and the error body of lib/errors.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { getJson, startApp } from '../helpers/start-app.js';
import { ROUTES } from '../../rest/routes.js';
import { COMMON_ERRORS, openApiDocument } from '../../rest/openapi.js';
import { ERROR_STATUS } from '../../lib/errors.js';

type Json = Record<string, any>;

async function fetchDoc(t: Parameters<typeof startApp>[0]) {
  const app = await startApp(t);
  return getJson(`${app.url}/openapi.json`);
}

test('served as JSON, public and cacheable, and valid OpenAPI 3.1', async (t) => {
  const res = await fetchDoc(t);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.equal(res.body.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(res.body);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  assert.equal(validator.version, '3.1');
});

test('every $ref resolves inside the document', async (t) => {
  const { body } = await fetchDoc(t);
  const refs = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') refs.add(v);
        else walk(v);
      }
    }
  };
  walk(body);
  assert.ok(refs.size > 0);
  for (const ref of refs) {
    assert.match(ref, /^#\//, ref);
    const target = ref
      .slice(2)
      .split('/')
      .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], body);
    assert.ok(target, `${ref} resolves`);
  }
});

test('servers is BASE_URL; Bearer ProKey on Pro rows, optional on optional rows', async (t) => {
  const { body } = await fetchDoc(t);
  assert.deepEqual(body.servers, [{ url: 'http://localhost:3000' }]);
  assert.deepEqual(body.components.securitySchemes.ProKey, {
    type: 'http',
    scheme: 'bearer',
    description: body.components.securitySchemes.ProKey.description,
  });
  for (const route of ROUTES) {
    const op = body.paths[`/api/v1${route.path}`][route.method];
    if (route.auth === 'pro') assert.deepEqual(op.security, [{ ProKey: [] }], route.path);
    else if (route.auth === 'optional') assert.deepEqual(op.security, [{}, { ProKey: [] }], route.path);
    else assert.equal(op.security, undefined, route.path);
  }
});

test('every route: parameters from the tool input, body for POST, 200 and every error code referencing Error', async (t) => {
  const { body } = await fetchDoc(t);
  for (const route of ROUTES) {
    const op: Json = body.paths[`/api/v1${route.path}`]?.[route.method];
    assert.ok(op, `${route.method} ${route.path}`);
    assert.equal(op.operationId, route.tool.name);
    const pathNames = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
    const params: Json[] = op.parameters ?? [];
    assert.deepEqual(
      params.filter((p) => p.in === 'path').map((p) => p.name),
      pathNames,
    );
    for (const p of params.filter((x) => x.in === 'path')) assert.equal(p.required, true);
    if (route.method === 'get') {
      const inputProps = Object.keys((route.tool.input as any).shape).filter((n) => !pathNames.includes(n));
      assert.deepEqual(params.filter((p) => p.in === 'query').map((p) => p.name).sort(), inputProps.sort(), route.path);
      assert.equal(op.requestBody, undefined);
    } else {
      assert.ok(op.requestBody?.content?.['application/json']?.schema, `${route.path} has a JSON body`);
    }
    const ok = op.responses['200'];
    assert.ok(ok.content[route.produces ?? 'application/json'].schema, route.path);
    const codes = [...route.errors, ...COMMON_ERRORS, ...(route.auth === 'none' ? [] : ['UNAUTHORIZED' as const])];
    for (const code of codes) {
      const response = op.responses[String(ERROR_STATUS[code])];
      assert.ok(response, `${route.path} documents ${code}`);
      assert.match(response.description, new RegExp(code));
      assert.deepEqual(response.content['application/json'].schema, { $ref: '#/components/schemas/Error' });
    }
    assert.ok(op.responses['429'].headers['Retry-After']);
  }
});

test('components.schemas.Error is the spec Error shape with next_action', async (t) => {
  const { body } = await fetchDoc(t);
  const error = body.components.schemas.Error;
  assert.equal(error.type, 'object');
  assert.deepEqual([...error.required].sort(), ['code', 'message']);
  assert.deepEqual(Object.keys(error.properties).sort(), ['code', 'error', 'message', 'next_action']);
  assert.ok(error.properties.code.enum.includes('SCAN_NOT_FOUND'));
  assert.deepEqual(error.properties.next_action, { $ref: '#/components/schemas/NextAction' });
  const next = body.components.schemas.NextAction;
  assert.deepEqual(Object.keys(next.properties).sort(), ['description', 'endpoint', 'method', 'params']);
  assert.deepEqual([...next.required].sort(), ['description', 'endpoint', 'method']);
});

test('components hold the .meta({id}) schemas; no $defs or $schema is left inline', async (t) => {
  const { body } = await fetchDoc(t);
  const text = JSON.stringify(body);
  assert.doesNotMatch(text, /"\$defs"|"\$schema"|#\/\$defs\//);
  for (const id of ['Error', 'NextAction']) assert.ok(body.components.schemas[id], id);
  if (ROUTES.some((r) => r.tool.name === 'get_scan')) {
    for (const id of ['ScanResult', 'Pillar', 'Check', 'Fix', 'Neighbor']) assert.ok(body.components.schemas[id], id);
    assert.deepEqual(body.paths['/api/v1/scan/{scan_id}.json'].get.responses['200'].content['application/json'].schema, {
      $ref: '#/components/schemas/ScanResult',
    });
  }
});

test('the non-tool surfaces are described too', async (t) => {
  const { body } = await fetchDoc(t);
  assert.ok(body.paths['/api/v1'].get);
  assert.deepEqual(
    body.paths['/api/v1/tools.json'].get.parameters.map((p: Json) => p.name),
    ['format'],
  );
  assert.ok(body.paths['/badge/{host}.svg'].get.responses['200'].content['image/svg+xml']);
  assert.ok(body.paths['/verify/{host}'].get.responses['302'].headers.Location);
  const mcp = body.paths['/mcp'].post;
  assert.ok(mcp.requestBody.content['application/json']);
  for (const status of ['200', '400', '403', '413']) assert.ok(mcp.responses[status], status);
  assert.equal(body.paths['/mcp'].get, undefined);
});

test('generation is deterministic and follows BASE_URL', () => {
  assert.deepEqual(openApiDocument('http://localhost:3000'), openApiDocument('http://localhost:3000'));
  assert.deepEqual((openApiDocument('https://api.example.com') as Json).servers, [{ url: 'https://api.example.com' }]);
});
