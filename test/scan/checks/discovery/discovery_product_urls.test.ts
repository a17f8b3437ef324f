// discovery_product_urls: ≥ 2 product URLs in the sitemap and a sampled page with Product markup → pass; found only
// via homepage links, or no markup on the sampled page → partial; no product URL at all → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/discovery/discovery_product_urls.js';
import { ORIGIN, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const urls = [`${ORIGIN}/products/a`, `${ORIGIN}/products/b`];

describe('discovery_product_urls', () => {
  it('passes with sitemap URLs and a confirmed product page', () => {
    const out = check.run(makeArtifacts({ productUrlsFromSitemap: urls, pdps: [makePdp({}, { markup: 'json-ld' })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /2 product URLs in the sitemap, 0 linked from the homepage; .*products\/widget has json-ld Product markup/);
  });

  it('is partial when found only through homepage links', () => {
    const out = check.run(makeArtifacts({ productUrlsFromHome: urls, pdps: [makePdp({}, { markup: 'microdata' }, 'home')] }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /fewer than 2 product pages are listed in a sitemap/);
  });

  it('is partial when the sampled page has no Product markup', () => {
    const out = check.run(makeArtifacts({ productUrlsFromSitemap: urls, pdps: [makePdp({}, { markup: 'none' })] }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /no sampled page carries Product markup/);
  });

  it('fails when no product URL is found', () => {
    const out = check.run(makeArtifacts());
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /No product URL found \(0 product URLs in the sitemap, 0 linked from the homepage\)/);
  });
});
