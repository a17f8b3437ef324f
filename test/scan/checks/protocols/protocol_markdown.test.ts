// protocol_markdown: a PDP requested with Accept: text/markdown returns text/markdown naming the product → pass;
// HTML back (an advertised .md alternate is noted) or no request → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_markdown.js';
import { ORIGIN, fact, makeArtifacts, makePdp, okResource } from '../../../helpers/artifacts.js';

const URL = `${ORIGIN}/products/widget`;

describe('protocol_markdown', () => {
  it('passes on Markdown naming the product', () => {
    const a = makeArtifacts({
      pdps: [makePdp({}, { name: fact('Storm Jacket') })],
      pdpAgentMarkdown: okResource(URL, '# Storm Jacket\n\nPrice: €189', { contentType: 'text/markdown' }),
    });
    const out = check.run(a);
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /200 text\/markdown .*names "Storm Jacket"/);
  });

  it('fails on HTML, noting an advertised alternate', () => {
    const a = makeArtifacts({
      pdps: [makePdp({ headLinks: [{ rel: ['alternate'], href: '/products/widget.md', type: 'text/markdown' }] }, { name: fact('Storm Jacket') })],
      pdpAgentMarkdown: okResource(URL, '<html></html>'),
    });
    const out = check.run(a);
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /answered Accept: text\/markdown with text\/html; a text\/markdown alternate is advertised \(\/products\/widget.md\)/);
  });

  it('fails on Markdown without the product name, and without a request', () => {
    const a = makeArtifacts({ pdps: [makePdp({}, { name: fact('Storm Jacket') })], pdpAgentMarkdown: okResource(URL, '# Home', { contentType: 'text/markdown' }) });
    assert.match(check.run(a).evidence, /product name "Storm Jacket" is not in it/);
    assert.equal(check.run(makeArtifacts()).status, 'fail');
  });
});
