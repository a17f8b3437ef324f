// discovery_link_headers: a homepage Link header with api-catalog/describedby/service-desc/sitemap or a markdown
// alternate → pass; HTML <link> elements alone are noted but fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/discovery/discovery_link_headers.js';
import { ORIGIN, makeArtifacts, makePage, okResource } from '../../../helpers/artifacts.js';

describe('discovery_link_headers', () => {
  it('passes on a Link header with an agent relation', () => {
    const link = '</cdn/fonts.css>; rel=preload; as=style, </.well-known/api-catalog>; rel="api-catalog", </llms.txt>; rel="describedby"; type="text/plain"';
    const out = check.run(makeArtifacts({ home: okResource(`${ORIGIN}/`, '', { headers: { Link: link } }) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /<\/.well-known\/api-catalog>; rel=api-catalog/);
    assert.doesNotMatch(out.evidence, /preload/);
  });

  it('passes on a markdown alternate', () => {
    const out = check.run(makeArtifacts({ home: okResource(`${ORIGIN}/`, '', { headers: { link: '</index.md>; rel="alternate"; type="text/markdown"' } }) }));
    assert.equal(out.status, 'pass');
  });

  it('fails with only HTML <link> elements, noting them', () => {
    const out = check.run(
      makeArtifacts({
        home: okResource(`${ORIGIN}/`, ''),
        homePage: makePage({ headLinks: [{ rel: ['alternate'], href: '/index.md', type: 'text/markdown' }] }),
      }),
    );
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /only HTML <link> elements \(rel=alternate \/index.md\)/);
  });

  it('fails without any', () => {
    const out = check.run(makeArtifacts({ home: okResource(`${ORIGIN}/`, '', { headers: { link: '<https://cdn.example>; rel=preconnect' } }) }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /No Link header/);
  });
});
