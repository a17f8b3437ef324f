// Invariants over every tool declaration (tools/index.ts), not only the ones MCP lists today: names, texts for a
// model, explicit and consistent hints, and schemas any surface can publish. Each tool is also registered on a real
// McpServer and listed through the SDK's own client, as it would be the day its `expose` gains 'mcp'. The lists
// are derived from the registry (TOOLS, ROUTES): adding a tool adds it here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTransport, McpServer, type Tool } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { TOOLS } from '../../tools/index.js';
import { ROUTES } from '../../rest/routes.js';
import { registerTools } from '../../mcp/server.js';
import { inputJsonSchema } from '../../well-known/function-defs.js';

const HINTS = ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint'];

/** Every tool as the MCP SDK publishes it: registered on a server, listed by a client, over a linked pair. */
async function listedBySdk(t: { after(fn: () => unknown): void }): Promise<Map<string, Tool>> {
  const server = new McpServer({ name: 'invariants', version: '1.0.0' });
  registerTools(server, TOOLS, () => {
    throw new Error('listing never calls a tool');
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'invariants', version: '1.0.0' });
  await client.connect(clientSide); // the client validates the listed tools against the MCP schema
  t.after(() => client.close());
  const { tools } = await client.listTools();
  return new Map(tools.map((tool) => [tool.name, tool]));
}

test('every tool has a unique snake_case name and is reachable on some surface (MCP, function calling or REST)', () => {
  assert.ok(TOOLS.length > 0);
  assert.equal(new Set(TOOLS.map((tool) => tool.name)).size, TOOLS.length);
  const routed = new Set(ROUTES.map((route) => route.tool));
  for (const route of ROUTES) assert.ok(TOOLS.includes(route.tool), `${route.path}: its tool is in tools/index.ts`);
  for (const tool of TOOLS) {
    assert.match(tool.name, /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, tool.name);
    assert.ok(tool.name.length <= 64, tool.name);
    assert.ok(tool.expose.length > 0 || routed.has(tool), `${tool.name} is reachable`);
  }
});

test('every tool has a title and a description for a model: what comes back and when, never the argument list', () => {
  for (const tool of TOOLS) {
    assert.ok(tool.title.trim().length > 0 && tool.title !== tool.name, `${tool.name} title`);
    const { description } = tool;
    // OpenAI caps function descriptions at 1,024 characters; a sentence or two is the floor of useful.
    assert.ok(description.length >= 100 && description.length <= 1024, `${tool.name}: ${description.length} characters`);
    assert.match(description, /[.)]$/, `${tool.name} ends a sentence`);
    assert.doesNotMatch(description, /\b(arguments?|parameters?|params|args)\s*:/i, `${tool.name} lists no arguments`);
    assert.doesNotMatch(description, /\binput\s*:/i, tool.name);
  }
});

test('hints are explicit and consistent with what each tool does', () => {
  // The tools that reach out of the service are the ones behind the scan limiter.
  const reachesOut = new Set(ROUTES.filter((route) => route.limit === 'scan').map((route) => route.tool));
  assert.ok(reachesOut.size > 0);
  for (const tool of TOOLS) {
    const hints = tool.annotations;
    assert.deepEqual(Object.keys(hints).sort(), HINTS, `${tool.name}: all four hints, explicitly`);
    for (const name of HINTS) assert.equal(typeof hints[name as keyof typeof hints], 'boolean', `${tool.name}.${name}`);
    assert.equal(hints.openWorldHint, reachesOut.has(tool), `${tool.name}: openWorldHint ⇔ it fetches stores`);
    assert.equal(hints.readOnlyHint, !reachesOut.has(tool), `${tool.name}: only a scan writes (the index)`);
    if (hints.readOnlyHint) assert.ok(hints.idempotentHint && !hints.destructiveHint, `${tool.name}: a read is idempotent and harmless`);
    assert.equal(hints.destructiveHint, false, `${tool.name}: no tool deletes or overwrites anything`);
    // docs/decisions.md "MCP": MCP reads stored scores only, it never scans.
    if (tool.expose.includes('mcp')) assert.ok(hints.readOnlyHint && !hints.openWorldHint, `${tool.name} on MCP reads only`);
  }
});

test('every input property is described, and every tool has a preflight only where it reaches out', () => {
  for (const tool of TOOLS) {
    const schema = inputJsonSchema(tool) as { properties?: Record<string, { description?: string }>; $defs?: Record<string, { properties?: Record<string, { description?: string }> }> };
    const properties = schema.properties ?? Object.values(schema.$defs ?? {})[0]?.properties ?? {};
    assert.ok(Object.keys(properties).length > 0, `${tool.name} takes arguments`);
    for (const [name, property] of Object.entries(properties)) {
      assert.ok(property.description && property.description.length >= 10, `${tool.name}.${name} is described`);
    }
    if (tool.preflight) assert.equal(tool.annotations.openWorldHint, true, `${tool.name}: a preflight guards a scan`);
  }
});

test('all tools, as the MCP SDK publishes them: top-level object schemas, the declared texts and hints', async (t) => {
  const listed = await listedBySdk(t);
  assert.deepEqual([...listed.keys()], TOOLS.map((tool) => tool.name));
  for (const tool of TOOLS) {
    const published = listed.get(tool.name)!;
    assert.equal(published.title, tool.title, tool.name);
    assert.equal(published.description, tool.description, tool.name);
    assert.deepEqual(published.annotations, tool.annotations, tool.name);
    for (const [which, schema] of [['inputSchema', published.inputSchema], ['outputSchema', published.outputSchema]] as const) {
      assert.ok(schema, `${tool.name} ${which}`);
      assert.equal(schema.type, 'object', `${tool.name} ${which} is an object at the top`);
      assert.ok(schema.properties && typeof schema.properties === 'object', `${tool.name} ${which} has properties`);
      for (const combinator of ['anyOf', 'oneOf', 'allOf', '$ref']) assert.ok(!(combinator in schema), `${tool.name} ${which}: no top-level ${combinator}`);
    }
  }
});

test('all tools, as function definitions: parameters equal the SDK inputSchema apart from $schema, but for one known gap', async (t) => {
  const listed = await listedBySdk(t);
  const differing: string[] = [];
  for (const tool of TOOLS) {
    const { $schema: _ignored, ...fromSdk } = listed.get(tool.name)!.inputSchema as Record<string, unknown>;
    try {
      assert.deepEqual(inputJsonSchema(tool), fromSdk);
    } catch {
      differing.push(tool.name);
    }
  }
  // well-known/function-defs.ts publishes a schema carrying an OpenAPI id (ReportsRequest) as a top-level $ref.
  // Harmless while read_reports is no function; this fails when the gap closes or reaches a function tool.
  assert.deepEqual(differing, ['read_reports']);
  assert.ok(!TOOLS.find((tool) => tool.name === 'read_reports')?.expose.includes('functions'), 'read_reports is not offered as a function');
});
