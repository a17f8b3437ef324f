// readCatalog on the published catalog examples (test/fixtures/protocols) and the edge cases around them: the first
// MCP server card entry by `type` (AI Catalog) or `mediaType` (first MCP catalog drafts), inline cards, relative URLs,
// other artifact types and nested catalogs skipped, non-catalogs refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCatalog } from '../../../scan/documents/mcp-catalog.js';
import { readProtocolFixture } from '../../helpers/artifacts.js';

const BASE = 'https://shop.example/.well-known/ai-catalog.json';
const fixture = (name: string) => JSON.parse(readProtocolFixture(name)) as unknown;

describe('readCatalog', () => {
  it('reads the published single-server examples, with type and with the earlier mediaType', () => {
    assert.deepEqual(readCatalog(fixture('mcp-catalog-discovery-type.json'), BASE), {
      isCatalog: true,
      entries: 1,
      card: { url: 'https://example.com/mcp/server-card', data: null, identifier: 'urn:air:example.com:weather' },
    });
    assert.deepEqual(readCatalog(fixture('mcp-catalog-discovery-mediatype.json'), BASE).card, {
      url: 'https://example.com/mcp/server-card',
      data: null,
      identifier: 'urn:mcp:server:com.example/weather',
    });
  });

  it('skips other artifacts and nested catalogs, takes an inline card, resolves relative URLs', () => {
    const card = { name: 'shop/mcp', remotes: [{ type: 'streamable-http', url: 'https://shop.example/mcp' }] };
    const read = readCatalog(
      {
        specVersion: '1.0',
        entries: [
          { identifier: 'urn:air:shop.example:skill:x', type: 'application/agent-skills+zip', url: 'https://shop.example/x.zip' },
          { identifier: 'urn:air:shop.example:catalog:more', type: 'application/ai-catalog+json', url: '/more.json' },
          { identifier: 'urn:air:shop.example:mcp:shop', type: 'Application/MCP-Server-Card+JSON; charset=utf-8', data: card },
        ],
      },
      BASE,
    );
    assert.deepEqual(read, { isCatalog: true, entries: 3, card: { url: null, data: card, identifier: 'urn:air:shop.example:mcp:shop' } });
    const relative = readCatalog({ entries: [{ type: 'application/mcp-server-card+json', url: '/mcp/server-card' }] }, BASE);
    assert.equal(relative.card?.url, 'https://shop.example/mcp/server-card');
  });

  it('ignores unusable entries and refuses what is not a catalog', () => {
    const bad = readCatalog({ entries: [{ type: 'application/mcp-server-card+json', url: 'javascript:alert(1)' }, 'x', null] }, BASE);
    assert.deepEqual(bad, { isCatalog: true, entries: 3, card: null });
    assert.deepEqual(readCatalog({ specVersion: '1.0' }, BASE), { isCatalog: false, entries: 0, card: null });
    assert.deepEqual(readCatalog('<html>', BASE), { isCatalog: false, entries: 0, card: null });
    assert.deepEqual(readCatalog(null, BASE), { isCatalog: false, entries: 0, card: null });
  });
});
