// Pins every generated surface of the tool declarations (docs/architecture.md "One declaration, every surface"). A diff
// here means a model or a client sees something new: review it, then `npm run golden` to accept it. BASE_URL is
// http://localhost:3000.
import { test } from 'node:test';
import { startApp, getJson } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { assertGolden } from '../helpers/golden.js';

test('golden: MCP tools/list (fetched with the SDK client)', async (t) => {
  const app = await startApp(t);
  const client = await connectMcp(t, app);
  assertGolden('tools-list', await client.listTools());
});

test('golden: function-calling definitions (OpenAI, Anthropic and Gemini shapes)', async (t) => {
  const app = await startApp(t);
  const openai = (await getJson(`${app.url}/api/v1/tools.json`)).body;
  const anthropic = (await getJson(`${app.url}/api/v1/tools.json?format=anthropic`)).body;
  const gemini = (await getJson(`${app.url}/api/v1/tools.json?format=gemini`)).body;
  assertGolden('function-defs', { openai, anthropic, gemini });
});

test('golden: OpenAPI document', async (t) => {
  const app = await startApp(t);
  assertGolden('openapi', (await getJson(`${app.url}/openapi.json`)).body);
});

test('golden: MCP server card', async (t) => {
  const app = await startApp(t);
  assertGolden('server-card', (await getJson(`${app.url}/.well-known/mcp/server-card.json`)).body);
});
