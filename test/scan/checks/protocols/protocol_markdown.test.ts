// protocol_markdown: a PDP requested with Accept: text/markdown returns text/markdown naming the product → pass;
// HTML back (an advertised .md alternate is noted) or no request → fail. With no product page, the homepage was
// asked: its title or h1 must be in the Markdown, and the evidence says the homepage was used.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_markdown.js';
import { ORIGIN, fact, makeArtifacts, makePage, makePdp, okResource } from '../../../helpers/artifacts.js';

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

  describe('no product page found: the homepage was asked', () => {
    const homePage = makePage({ title: 'Store Readiness: is your store ready for AI shopping agents?', h1: 'Can AI shopping agents buy from your store?' });

    it('passes on Markdown carrying the homepage title, and says it used the homepage', () => {
      const a = makeArtifacts({
        homePage,
        pdpAgentMarkdown: okResource(`${ORIGIN}/`, '# Store Readiness: is your store ready for AI shopping agents?\n\n> Lighthouse', { contentType: 'text/markdown' }),
      });
      const out = check.run(a);
      assert.equal(out.status, 'pass');
      assert.match(out.evidence, /^No product page found, so the homepage was asked: https:\/\/store\.example\/ → 200 text\/markdown \(\d+ characters, names "Store Readiness: is your store ready for AI shopping agents\?"\)\.$/);
    });

    it('the h1 counts as well as the title', () => {
      const a = makeArtifacts({ homePage, pdpAgentMarkdown: okResource(`${ORIGIN}/`, '# Can AI shopping agents buy from your store?', { contentType: 'text/markdown' }) });
      assert.equal(check.run(a).status, 'pass');
    });

    it('fails on Markdown naming neither, and on HTML, saying the homepage was asked', () => {
      const other = check.run(makeArtifacts({ homePage, pdpAgentMarkdown: okResource(`${ORIGIN}/`, '# Welcome', { contentType: 'text/markdown' }) }));
      assert.equal(other.status, 'fail');
      assert.match(other.evidence, /^No product page found, so the homepage was asked: .*neither the homepage title nor its h1/);
      const html = check.run(
        makeArtifacts({
          homePage: makePage({ ...homePage, headLinks: [{ rel: ['alternate'], href: '/index.md', type: 'text/markdown' }] }),
          pdpAgentMarkdown: okResource(`${ORIGIN}/`, '<html></html>'),
        }),
      );
      assert.equal(html.status, 'fail');
      assert.match(html.evidence, /^No product page found, so the homepage was asked: https:\/\/store\.example\/ answered Accept: text\/markdown with text\/html; a text\/markdown alternate is advertised \(\/index\.md\)/);
    });
  });
});
