// What the MCP server offers, as data: its name, instructions, revisions, capabilities and tools. mcp/server.ts
// serves it; the documents that describe the server (the server card, llms.txt) read it here, without the adapter.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { SERVICE_VERSION } from '../lib/version.js';
import { TOOLS } from './index.js';
import type { AnyTool } from './tool.js';

/** The current MCP revision, served through the SDK's per-request handler. */
export const MCP_CURRENT_REVISION = '2026-07-28';

/** The protocol revisions POST /mcp serves: the current one, and the 2025 ones (and older) through the 2025 leg. */
export const MCP_REVISIONS: readonly string[] = [MCP_CURRENT_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS];

export const MCP_SERVER_INFO = { name: 'store-readiness', title: 'Store Readiness', version: SERVICE_VERSION };
export const MCP_INSTRUCTIONS =
  'Agent-readiness scores of e-commerce stores: can an AI shopping agent find, understand and buy there? ' +
  'These tools read stored scan results only and never contact or scan a store. A store that was never scanned ' +
  'returns an error whose next_action names the scan endpoint, which is meant for merchants auditing their own store.';

/**
 * The lists never change while the process runs (a new list comes with a new release), so no list_changed is ever
 * sent: said here, a 2026-07-28 subscriptions/listen is acknowledged with none of them, and a 2025 client is told
 * not to wait for one.
 */
export const MCP_CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} };

/** The tools MCP lists, in tools/index.ts order. */
export const mcpTools = (): AnyTool[] => TOOLS.filter((t) => t.expose.includes('mcp'));
