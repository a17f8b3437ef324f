// discovery_llms_txt: H1 + summary + a linked section as text → pass; H1 without summary/links, or Markdown served as
// HTML → partial; 404 or an HTML soft 404 → fail. Runs on the real llms.txt files of the corpus.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/discovery/discovery_llms_txt.js';
import { ORIGIN, makeArtifacts, okResource, readRealFixture, requireRealFixtures } from '../../../helpers/artifacts.js';

const served = (body: string, contentType = 'text/plain', status = 200) =>
  makeArtifacts({ llmsTxt: okResource(`${ORIGIN}/llms.txt`, body, { contentType, status }) });

const GOOD = '# Acme Store\n\n> Outdoor gear, shipped across the EU in EUR.\n\n## Products\n\n- [Jackets](https://store.example/collections/jackets): waterproof\n';

describe('discovery_llms_txt', () => {
  it('passes on a complete file', () => {
    const out = check.run(served(GOOD, 'text/markdown'));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /H1 "Acme Store", 1 section, 1 link, with a summary/);
  });

  it('is partial without a summary, without links, or as text/html with a Markdown body', () => {
    const noSummary = check.run(served('# Acme\n\n## Products\n\n- [A](https://store.example/a)\n'));
    assert.equal(noSummary.status, 'partial');
    assert.match(noSummary.evidence, /no "> " summary/);
    const noLinks = check.run(served('# Acme\n\n> Summary\n'));
    assert.equal(noLinks.status, 'partial');
    assert.match(noLinks.evidence, /no "## " section/);
    const html = check.run(served(GOOD, 'text/html'));
    assert.equal(html.status, 'partial');
    assert.match(html.evidence, /served as text\/html/);
  });

  it('fails on 404 or an HTML soft 404', () => {
    const missing = check.run(served('Not found', 'text/html', 404));
    assert.equal(missing.status, 'fail');
    assert.match(missing.evidence, /404/);
    const soft = check.run(served('<!doctype html><html><title>Page not found</title></html>', 'text/html'));
    assert.equal(soft.status, 'fail');
    assert.match(soft.evidence, /soft 404/);
  });

  it('grades the real files: llmstxt.org passes, Shopify app files lack the summary', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const run = (f: string) => check.run(served(readRealFixture(dir, join('llms', f)))).status;
    assert.equal(run('llmstxt-org-site.llms.txt'), 'pass');
    assert.equal(run('llmstxt-org-spec-sample-fasthtml.llms.txt'), 'pass');
    assert.equal(run('shopify-idun-life-com-sek.llms.txt'), 'partial');
    assert.equal(run('shopify-holavox-io-eur.llms.txt'), 'partial');
    assert.equal(run('shopify-theonedevice-com-usd.llms.txt'), 'partial');
  });
});
