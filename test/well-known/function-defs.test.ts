// GET /api/v1/tools.json: function-calling definitions generated from the tool declarations (expose ∋ 'functions').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { TOOLS } from '../../tools/index.js';
import { inputJsonSchema } from '../../well-known/function-defs.js';

const FUNCTION_TOOLS = TOOLS.filter((t) => t.expose.includes('functions'));

test('OpenAI shape on /api/v1/tools.json and the /api alias, public and cacheable', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/api/v1/tools.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.deepEqual(
    res.body.tools.map((d: { function: { name: string } }) => d.function.name),
    FUNCTION_TOOLS.map((tool) => tool.name),
  );
  for (const def of res.body.tools) {
    assert.equal(def.type, 'function');
    assert.deepEqual(Object.keys(def.function).sort(), ['description', 'name', 'parameters']);
    assert.equal(def.function.parameters.type, 'object');
    assert.ok(def.function.parameters.properties);
    assert.ok(!('$schema' in def.function.parameters));
    for (const combinator of ['anyOf', 'oneOf', 'allOf']) assert.ok(!(combinator in def.function.parameters));
  }
  const alias = await getJson(`${app.url}/api/tools.json`);
  assert.deepEqual(alias.body, res.body);
});

test('check_merchant_readiness is a function with a required host string', async (t) => {
  const app = await startApp(t);
  const { body } = await getJson(`${app.url}/api/v1/tools.json`);
  const check = body.tools.find((d: { function: { name: string } }) => d.function.name === 'check_merchant_readiness');
  assert.ok(check, 'check_merchant_readiness is listed');
  assert.equal(check.function.parameters.properties.host.type, 'string');
  assert.deepEqual(check.function.parameters.required, ['host']);
  assert.ok(!body.tools.some((d: { function: { name: string } }) => ['get_readiness_report', 'list_agent_ready_stores'].includes(d.function.name)));
});

test('?format=anthropic gives {name, description, input_schema}; an unknown format is a JSON 400', async (t) => {
  const app = await startApp(t);
  const openai = await getJson(`${app.url}/api/v1/tools.json?format=openai`);
  const anthropic = await getJson(`${app.url}/api/v1/tools.json?format=anthropic`);
  assert.equal(anthropic.status, 200);
  assert.deepEqual(
    anthropic.body.tools,
    openai.body.tools.map((d: { function: { name: string; description: string; parameters: unknown } }) => ({
      name: d.function.name,
      description: d.function.description,
      input_schema: d.function.parameters,
    })),
  );
  for (const format of ['gemini', 'constructor', '__proto__']) {
    const bad = await getJson(`${app.url}/api/v1/tools.json?format=${format}`);
    assert.equal(bad.status, 400, format);
    assert.equal(bad.body.code, 'INVALID_PARAMS');
  }
  const post = await getJson(`${app.url}/api/v1/tools.json`, { method: 'POST' });
  assert.equal(post.status, 405);
});

test('parameters equal the MCP tools/list inputSchema of the same tool, apart from $schema', async (t) => {
  const app = await startApp(t);
  const client = await connectMcp(t, app);
  const listed = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema]));
  const { body } = await getJson(`${app.url}/api/v1/tools.json`);
  let compared = 0;
  for (const def of body.tools) {
    const fromMcp = listed.get(def.function.name);
    if (!fromMcp) continue; // scan_store is a function but never an MCP tool
    const { $schema: _ignored, ...withoutSchema } = fromMcp as Record<string, unknown>;
    assert.deepEqual(def.function.parameters, withoutSchema, def.function.name);
    compared++;
  }
  assert.ok(compared >= 1, 'check_merchant_readiness is on both surfaces');
  // The same holds for every MCP tool (the server card lists them with inputJsonSchema).
  for (const tool of TOOLS.filter((x) => x.expose.includes('mcp'))) {
    const { $schema: _ignored, ...withoutSchema } = listed.get(tool.name) as Record<string, unknown>;
    assert.deepEqual(inputJsonSchema(tool), withoutSchema, tool.name);
  }
});
