// discovery_robots_txt: 200 text/plain with a group and no junk → pass; wrong type, HTML soft 404, no group or
// unparseable lines → partial; 404/5xx → fail. Real files from the corpus parse cleanly.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/discovery/discovery_robots_txt.js';
import { ORIGIN, makeArtifacts, okResource, readRealFixture, requireRealFixtures, robotsFrom } from '../../../helpers/artifacts.js';

function served(text: string, opts: { status?: number; contentType?: string } = {}) {
  const status = opts.status ?? 200;
  return makeArtifacts({
    robotsTxt: okResource(`${ORIGIN}/robots.txt`, text, { status, contentType: opts.contentType ?? 'text/plain' }),
    robots: robotsFrom(text, status),
  });
}

describe('discovery_robots_txt', () => {
  it('passes on a valid file', () => {
    const out = check.run(served('User-agent: *\nDisallow: /cart\nSitemap: https://store.example/sitemap.xml\n'));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /robots.txt → 200 text\/plain: 1 user-agent group, 1 Sitemap line/);
  });

  it('is partial on a wrong content type, unknown lines, no group or an HTML soft 404', () => {
    const type = check.run(served('User-agent: *\nDisallow:\n', { contentType: 'text/html' }));
    assert.equal(type.status, 'partial');
    assert.match(type.evidence, /content type text\/html instead of text\/plain/);
    const junk = check.run(served('User-agent: *\nDisalow: /x\n'));
    assert.equal(junk.status, 'partial');
    assert.match(junk.evidence, /1 unparseable line/);
    const html = check.run(served('<!DOCTYPE html><html><body>Not found</body></html>', { contentType: 'text/html' }));
    assert.equal(html.status, 'partial');
    assert.match(html.evidence, /soft 404/);
    const noGroup = check.run(served('Sitemap: https://store.example/sitemap.xml\n'));
    assert.equal(noGroup.status, 'partial');
    assert.match(noGroup.evidence, /no User-agent group/);
  });

  it('fails on 404 and 5xx', () => {
    const missing = check.run(served('', { status: 404 }));
    assert.equal(missing.status, 'fail');
    assert.match(missing.evidence, /404/);
    const down = check.run(served('', { status: 500 }));
    assert.equal(down.status, 'fail');
    assert.match(down.evidence, /compliant crawlers treat the whole store as disallowed/);
  });

  it('passes on the real ikea.com file and is partial on llmstxt.org (sitemap only)', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    assert.equal(check.run(served(readRealFixture(dir, join('robots', 'ikea.com--2019-protego.robots.txt')))).status, 'pass');
    assert.equal(check.run(served(readRealFixture(dir, join('robots', 'llmstxt.org--sitemap-only.robots.txt')))).status, 'partial');
  });
});
