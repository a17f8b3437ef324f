// discovery_sitemap: a declared, valid sitemap → pass; valid only at the default path (undeclared, or the declared one
// broken) → partial; nothing valid → fail. Uses the corpus' real urlset and its malformed sitemap index.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/discovery/discovery_sitemap.js';
import { ORIGIN, makeArtifacts, okResource, readRealFixture, requireRealFixtures, robotsFrom } from '../../../helpers/artifacts.js';

const URLSET = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://store.example/products/a</loc></url></urlset>';
const INDEX = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://store.example/sitemap_products_1.xml</loc></sitemap></sitemapindex>';

function site(body: string, declared: boolean, robots = 'User-agent: *\nAllow: /\n', status = 200) {
  return makeArtifacts({
    robots: robotsFrom(robots),
    sitemap: okResource(`${ORIGIN}/sitemap.xml`, body, { status, contentType: 'application/xml' }),
    sitemapUrl: `${ORIGIN}/sitemap.xml`,
    sitemapDeclared: declared,
  });
}

describe('discovery_sitemap', () => {
  it('passes on a declared urlset or sitemap index', () => {
    const out = check.run(site(URLSET, true, 'User-agent: *\nSitemap: https://store.example/sitemap.xml\n'));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /Declared sitemap .*sitemap.xml → 200 .* valid <urlset>/);
    assert.equal(check.run(site(INDEX, true)).status, 'pass');
  });

  it('is partial when valid but not declared, or when the declared one is broken', () => {
    const undeclared = check.run(site(URLSET, false));
    assert.equal(undeclared.status, 'partial');
    assert.match(undeclared.evidence, /no Sitemap: line/);
    const broken = check.run(site(URLSET, false, 'User-agent: *\nSitemap: https://store.example/old-sitemap.xml\n'));
    assert.equal(broken.status, 'partial');
    assert.match(broken.evidence, /old-sitemap.xml did not work/);
  });

  it('fails without a valid sitemap', () => {
    const missing = check.run(site('<html>Not found</html>', false, 'User-agent: *\n', 404));
    assert.equal(missing.status, 'fail');
    assert.match(missing.evidence, /No valid sitemap: .*404/);
    assert.equal(check.run(makeArtifacts()).status, 'fail');
  });

  it('reads the real corpus: llmstxt.org urlset passes, the index without <loc> fails', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    assert.equal(check.run(site(readRealFixture(dir, join('sitemaps', 'llmstxt-org-urlset.sitemap.xml')), true)).status, 'pass');
    const bad = readRealFixture(dir, join('sitemaps', 'crawlercommons-synthetic-sitemapindex-missing-loc.sitemap.xml'));
    assert.equal(check.run(site(bad, true)).status, 'fail');
  });
});
