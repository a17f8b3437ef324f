// The pool of idle MCP servers (mcp/server-pool.ts): a server is handed out again only once its exchange has closed
// it, never while it serves; through the real app, overlapping requests each still get their own answer
// (test/mcp/overlap.test.ts) and sequential ones reuse servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { serverPool } from '../../mcp/server-pool.js';

test('a server is reused only after its exchange closed it', async () => {
  let built = 0;
  const next = serverPool(() => {
    built++;
    return new McpServer({ name: 'pooled', version: '1.0.0' });
  });
  const first = next();
  const [serverSide] = InMemoryTransport.createLinkedPair();
  await first.connect(serverSide);
  const second = next(); // the first is still serving
  assert.notEqual(second, first);
  assert.equal(built, 2);
  await first.close();
  assert.equal(next(), first, 'closed, it is handed out again');
  assert.equal(built, 2);
});
