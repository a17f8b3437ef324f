// The MCP SDK's own Client over Streamable HTTP, connected to a started app: what a real agent host sees.
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectMcp(t: Pick<TestContext, 'after'> | null, app: { url: string }): Promise<Client> {
  const client = new Client({ name: 'store-readiness-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
  t?.after(() => client.close());
  return client;
}

/** A raw JSON-RPC POST to /mcp (no SDK), for the transport-level guards. */
export async function postMcp(
  app: { url: string },
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the text for the assertion message */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
