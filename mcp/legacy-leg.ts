// The 2025 leg of POST /mcp: a 2025-06-18 or 2025-11-25 request (no 2026-07-28 `_meta` envelope) is answered by a
// server of its own (from the 2025 pool, mcp/server-pool.ts) built from the same definition as the 2026-07-28 path,
// over the SDK's stateless Streamable HTTP transport.
// The SDK's own fallback (createMcpHandler's legacy: 'stateless') answers as an SSE stream and refuses a POST whose
// Accept header does not name both media types; this endpoint has always answered one JSON body to every POST,
// and 2025 clients keep getting exactly that.
import { WebStandardStreamableHTTPServerTransport, type LegacyHttpHandler, type McpServer } from '@modelcontextprotocol/server';

const ACCEPT_BOTH = 'application/json, text/event-stream';

export function jsonLegacyLeg(factory: () => McpServer): LegacyHttpHandler {
  return async (request, options) => {
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      // The answer is JSON whatever the client accepts, as it always was. The request is this exchange's own (the
      // Node adapter builds one per HTTP request), so its headers are set in place: a copy of the Request would
      // pipe its body through a new stream and cost more than a tenth of the call.
      request.headers.set('accept', ACCEPT_BOTH);
      return await transport.handleRequest(request, options);
    } finally {
      void server.close().catch(() => {});
    }
  };
}
