// Idle MCP servers kept for the next request. The SDK's per-request handler asks for a server for every request
// and accepts any instance that is not serving another one; building one (registering every tool, resource and
// prompt) cost more CPU than the tool call it serves (docs/decisions.md "MCP 2026-07-28"). A server goes back to
// its pool when its exchange closes it, so one instance never serves two requests at once. One pool per protocol
// era: an instance keeps what its last request negotiated, so 2025 and 2026-07-28 requests never share one.
import type { McpServer } from '@modelcontextprotocol/server';

/** Idle servers kept at most per era: enough for the connections a loaded process has in flight. */
export const MAX_IDLE_SERVERS = 64;

export function serverPool(build: () => McpServer): () => McpServer {
  const idle: McpServer[] = [];
  return () => {
    const server = idle.pop() ?? build();
    // Called when the exchange's transport closes; the SDK chains the onclose it finds here.
    server.server.onclose = () => {
      if (idle.length < MAX_IDLE_SERVERS && !idle.includes(server)) idle.push(server);
    };
    return server;
  };
}
