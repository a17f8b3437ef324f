// The MCP server card and catalog: generated from the tool declarations, consistent with what the server says live.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { serverCardName } from '../../well-known/server-card.js';
import { MCP_REVISIONS } from '../../tools/mcp-tools.js';
import { SERVICE_VERSION } from '../../lib/version.js';

test('server card: identity, remote, no auth and the MCP tools, public and cacheable', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/.well-known/mcp/server-card.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  const card = res.body;
  assert.equal(card.name, 'localhost/store-readiness');
  assert.equal(card.version, SERVICE_VERSION);
  assert.ok(card.description.length > 20);
  assert.deepEqual(card.remotes, [{ type: 'streamable-http', url: 'http://localhost:3000/mcp', supportedProtocolVersions: [...MCP_REVISIONS], authentication: { required: false, schemes: [] } }]);
  assert.deepEqual(card.remotes[0].supportedProtocolVersions.slice(0, 3), ['2026-07-28', '2025-11-25', '2025-06-18']);
  assert.deepEqual(card.authentication, { required: false, schemes: [] });
  for (const tool of card.tools) assert.deepEqual(Object.keys(tool).sort(), ['annotations', 'description', 'inputSchema', 'name', 'title']);
});

test('the card agrees with the live server: serverInfo and every tool as tools/list shows it', async (t) => {
  const app = await startApp(t);
  const { body: card } = await getJson(`${app.url}/.well-known/mcp/server-card.json`);
  const client = await connectMcp(t, app);
  assert.equal(client.getServerVersion()?.version, card.version);
  assert.equal(client.getServerVersion()?.title, card.title);
  const { tools } = await client.listTools();
  assert.deepEqual(
    card.tools,
    tools.map((tool) => {
      const { $schema: _ignored, ...inputSchema } = tool.inputSchema as Record<string, unknown>;
      return { name: tool.name, title: tool.title, description: tool.description, inputSchema, annotations: tool.annotations };
    }),
  );
});

test('the MCP catalog points at the card', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/.well-known/mcp/catalog.json`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.body.specVersion, 'draft');
  assert.deepEqual(res.body.entries, [
    {
      identifier: 'urn:air:localhost:store-readiness',
      displayName: 'Store Readiness',
      type: 'application/mcp-server-card+json',
      url: 'http://localhost:3000/mcp/server-card',
    },
  ]);
});

test('the AI Catalog, where current MCP clients start, points at the same card', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/.well-known/ai-catalog.json`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/ai-catalog+json; charset=utf-8');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.deepEqual(res.body, {
    specVersion: '1.0',
    host: { displayName: 'Store Readiness', identifier: 'localhost' },
    entries: [
      {
        identifier: 'urn:air:localhost:mcp:store-readiness',
        type: 'application/mcp-server-card+json',
        url: 'http://localhost:3000/mcp/server-card',
      },
    ],
  });
  const card = await getJson(res.body.entries[0].url.replace('http://localhost:3000', app.url));
  assert.equal(card.status, 200);
  assert.equal(card.body.name, 'localhost/store-readiness');
});

test('the card\'s home beside the endpoint, /mcp/server-card, serves the same card with the card media type', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/mcp/server-card`, { headers: { accept: 'application/mcp-server-card+json' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/mcp-server-card+json; charset=utf-8');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.deepEqual(res.body, (await getJson(`${app.url}/.well-known/mcp/server-card.json`)).body);
  assert.equal((await getJson(`${app.url}/mcp/server-card`, { method: 'POST' })).status, 405);
});

test('card names are reverse-DNS of BASE_URL with one slash', () => {
  assert.equal(serverCardName('https://readiness.example.com'), 'com.example.readiness/store-readiness');
  assert.equal(serverCardName('http://localhost:3000'), 'localhost/store-readiness');
  assert.equal(serverCardName('http://127.0.0.1:8080'), '127.0.0.1/store-readiness');
});

test('a card built from another BASE_URL points its remote there', async (t) => {
  const app = await startApp(t, { BASE_URL: 'https://readiness.example.com' });
  const { body } = await getJson(`${app.url}/.well-known/mcp/server-card.json`);
  assert.equal(body.remotes[0].url, 'https://readiness.example.com/mcp');
  assert.equal(body.name, 'com.example.readiness/store-readiness');
});

test('only GET: other methods are JSON 405s', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/.well-known/mcp/server-card.json`, { method: 'POST' });
  assert.equal(res.status, 405);
  assert.equal(res.body.code, 'METHOD_NOT_ALLOWED');
});
