// GET /api/v1/tools.json: function-calling definitions generated from the tool declarations (expose ∋ 'functions').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { TOOLS } from '../../tools/index.js';
import { inputJsonSchema } from '../../well-known/function-defs.js';
import { geminiSchema } from '../../well-known/gemini-schema.js';
import { z } from 'zod';

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
  for (const format of ['mistral', 'constructor', '__proto__', 'toString']) {
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

// The published shapes each model API accepts, written from their references: OpenAI's chat `tools` entry
// (platform.openai.com/docs/api-reference/chat/create#tools), Anthropic's tool definition
// (docs.anthropic.com/en/docs/agents-and-tools/tool-use: name matching ^[a-zA-Z0-9_-]{1,64}$, an object
// input_schema) and Gemini's Tool with its FunctionDeclaration and Schema objects (ai.google.dev/api/caching#Tool:
// names of at most 64 letters, digits, _ . : -, starting with a letter or _, and the OpenAPI 3.0 subset of Schema
// with upper-case types). Strict: a field the API does not know fails.
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const JsonSchemaObject = z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.looseObject({})), required: z.array(z.string()).optional() });
const OpenAiTool = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({ name: z.string().regex(OPENAI_NAME), description: z.string().optional(), parameters: JsonSchemaObject.optional(), strict: z.boolean().optional() }),
});
const AnthropicTool = z.strictObject({ name: z.string().regex(OPENAI_NAME), description: z.string().optional(), input_schema: JsonSchemaObject });
type GeminiSchemaShape = { [key: string]: unknown };
const GeminiSchema: z.ZodType<GeminiSchemaShape> = z.lazy(() =>
  z.strictObject({
    type: z.enum(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']).optional(),
    format: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    nullable: z.boolean().optional(),
    enum: z.array(z.string()).optional(),
    maxItems: z.int().optional(),
    minItems: z.int().optional(),
    properties: z.record(z.string(), GeminiSchema).optional(),
    required: z.array(z.string()).optional(),
    minProperties: z.int().optional(),
    maxProperties: z.int().optional(),
    minLength: z.int().optional(),
    maxLength: z.int().optional(),
    pattern: z.string().optional(),
    example: z.unknown().optional(),
    anyOf: z.array(GeminiSchema).optional(),
    propertyOrdering: z.array(z.string()).optional(),
    default: z.unknown().optional(),
    items: GeminiSchema.optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
  }),
);
const GeminiTools = z.strictObject({
  tools: z
    .array(
      z.strictObject({
        functionDeclarations: z.array(
          z.strictObject({ name: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/), description: z.string(), parameters: GeminiSchema.optional() }),
        ),
      }),
    )
    .length(1),
});

/** Gemini's schema read back as JSON Schema types, to compare meaning with the tool's own schema. */
function asJsonTypes(schema: Record<string, unknown>): unknown {
  const { type, properties, items, propertyOrdering: _order, nullable, ...rest } = schema;
  const back: Record<string, unknown> = { ...rest };
  if (type) back.type = nullable ? [String(type).toLowerCase(), 'null'] : String(type).toLowerCase();
  if (properties) back.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, asJsonTypes(v as Record<string, unknown>)]));
  if (items) back.items = asJsonTypes(items as Record<string, unknown>);
  return back;
}

test('each format passes its API\'s published shape, and Gemini\'s parameters mean what the tool\'s schema means', async (t) => {
  const app = await startApp(t);
  const [openai, anthropic, gemini] = await Promise.all(
    ['openai', 'anthropic', 'gemini'].map(async (f) => (await getJson(`${app.url}/api/v1/tools.json?format=${f}`)).body),
  );
  for (const def of openai.tools) OpenAiTool.parse(def);
  for (const def of anthropic.tools) AnthropicTool.parse(def);
  const declarations = GeminiTools.parse(gemini).tools[0].functionDeclarations;
  assert.deepEqual(declarations.map((d) => d.name), FUNCTION_TOOLS.map((tool) => tool.name));
  for (const [i, declaration] of declarations.entries()) {
    const { additionalProperties: _loose, ...schema } = inputJsonSchema(FUNCTION_TOOLS[i]);
    assert.equal(declaration.description, FUNCTION_TOOLS[i].description);
    assert.deepEqual(asJsonTypes(declaration.parameters!), schema, declaration.name);
    assert.deepEqual(declaration.parameters!.propertyOrdering, Object.keys(schema.properties as object), 'arguments keep their order');
  }
});

test('the Gemini schema: nullable, const and arrays carried over; a keyword it cannot express refused, not dropped', () => {
  assert.deepEqual(
    geminiSchema({ type: 'object', additionalProperties: false, properties: { a: { type: ['string', 'null'] }, b: { const: 'x' }, c: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 5 } } }),
    {
      type: 'OBJECT',
      properties: { a: { type: 'STRING', nullable: true }, b: { enum: ['x'] }, c: { type: 'ARRAY', items: { type: 'INTEGER', minimum: 1 }, maxItems: 5 } },
      propertyOrdering: ['a', 'b', 'c'],
    },
  );
  for (const bad of [{ $ref: '#/$defs/X' }, { oneOf: [] }, { not: {} }, { type: ['string', 'integer'] }]) {
    assert.throws(() => geminiSchema(bad as Record<string, unknown>), /no Gemini equivalent/, JSON.stringify(bad));
  }
});
