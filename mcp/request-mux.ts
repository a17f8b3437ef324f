// The Transport between the one McpServer of the process and the HTTP requests to /mcp. The SDK's server cannot
// be shared through its own HTTP transport (one transport per server, a stateless transport serves one request),
// and building server and transport anew for every request cost more than the tool call itself. Here the server
// stays connected to this transport for the life of the process; each request is handed in under an id of its
// own, so two clients sending the same JSON-RPC id never meet, and its answer comes back with the client's id.
// test/mcp/overlap.test.ts sends 200 overlapping calls sharing one id.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

interface Waiting {
  clientId: RequestId;
  resolve(message: JSONRPCMessage): void;
}

export class RequestMux implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The server's messages: answers go to the request they belong to; anything else has no one to go to. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || typeof message.id !== 'number') return;
    const waiting = this.waiting.get(message.id);
    if (!waiting) return; // the client has gone: its answer is dropped
    this.waiting.delete(message.id);
    waiting.resolve({ ...message, id: waiting.clientId } as JSONRPCMessage);
  }

  /** Runs one client request. `id` is the process-wide id the handlers see (extra.requestId), for their context. */
  request(message: JSONRPCRequest, onId: (id: number) => void): { answer: Promise<JSONRPCMessage>; cancel(): void } {
    const id = ++this.nextId;
    onId(id);
    const answer = new Promise<JSONRPCMessage>((resolve) => this.waiting.set(id, { clientId: message.id, resolve }));
    try {
      this.onmessage?.({ ...message, id });
    } catch (err) {
      this.waiting.delete(id); // nothing will answer it
      throw err;
    }
    return {
      answer,
      cancel: () => {
        if (!this.waiting.delete(id)) return;
        // The SDK aborts the handler's signal and sends nothing for a cancelled request.
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'client disconnected' } });
      },
    };
  }

  /** A notification from a client (initialized, cancelled, ...): stateless, so none refers to anything here. */
  notify(): void {}
}
