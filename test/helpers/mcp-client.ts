// The MCP SDK's own Client over Streamable HTTP, connected to a started app: what a real agent host sees.
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from '@modelcontextprotocol/client';

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

/**
 * The v2 SDK client: pinned to 2026-07-28 (a client that speaks only the current revision), or in `legacy` mode
 * (the plain 2025 initialize handshake).
 */
export async function connectMcpV2(t: Pick<TestContext, 'after'> | null, app: { url: string }, mode: 'modern' | 'legacy'): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'store-readiness-tests', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  await client.connect(new StreamableHTTPClientTransportV2(new URL(`${app.url}/mcp`)));
  t?.after(() => client.close());
  return client;
}

/** The 2026-07-28 envelope and headers for a raw request: what a modern client sends with every POST. */
export function modernRequest(method: string, params: Record<string, unknown> = {}, id: number | string = 1, name?: string) {
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      },
    },
  };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
  return { body, headers };
}
