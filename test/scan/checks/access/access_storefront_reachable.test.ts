// access_storefront_reachable: 2xx HTML passes; long/cross-domain redirects or non-HTML are partial; 401, challenge
// and password pages fail with the H3 cap; a bare 5xx or timeout fails without it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_storefront_reachable.js';
import { ORIGIN, failResource, makeArtifacts, makePage, okResource } from '../../../helpers/artifacts.js';

const home = (body: string, opts: Parameters<typeof okResource>[2] = {}) => makeArtifacts({ home: okResource(`${ORIGIN}/`, body, opts) });

describe('access_storefront_reachable', () => {
  it('passes on 200 HTML after a short same-domain redirect', () => {
    const out = check.run(home('<html><title>Shop</title></html>', { redirects: ['https://www.store.example/'], requestedUrl: 'http://store.example/' }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /200 text\/html after 1 redirect/);
  });

  it('is partial on 4 redirects, a cross-domain hop or a non-HTML answer', () => {
    const many = check.run(home('<html></html>', { redirects: ['/a', '/b', '/c', '/d'] }));
    assert.equal(many.status, 'partial');
    assert.match(many.evidence, /4 redirects/);
    const offsite = check.run(home('<html></html>', { redirects: ['https://shops.example-cdn.net/store'] }));
    assert.equal(offsite.status, 'partial');
    assert.match(offsite.evidence, /off store\.example/);
    const json = check.run(home('{}', { contentType: 'application/json' }));
    assert.equal(json.status, 'partial');
    assert.match(json.evidence, /application\/json, not HTML/);
  });

  it('keeps ccTLD second levels together when comparing domains', () => {
    const a = makeArtifacts({ origin: 'https://shop.co.uk', home: okResource('https://www.shop.co.uk/', '<html></html>', { redirects: ['https://www.shop.co.uk/'] }) });
    assert.equal(check.run(a).status, 'pass');
    const b = makeArtifacts({ origin: 'https://shop.co.uk', home: okResource('https://other.co.uk/', '<html></html>', { redirects: ['https://other.co.uk/'] }) });
    assert.equal(check.run(b).status, 'partial');
  });

  it('fails with H3 on 401', () => {
    const out = check.run(home('<title>Login</title>', { status: 401, headers: { server: 'nginx' } }));
    assert.equal(out.status, 'fail');
    assert.equal(out.capReason, 'H3');
    assert.match(out.evidence, /401, server: nginx/);
  });

  it('fails with H3 on a challenge page (cf-mitigated or markers)', () => {
    const cf = check.run(home('<title>Just a moment...</title>', { status: 403, headers: { 'cf-mitigated': 'challenge', server: 'cloudflare' } }));
    assert.equal(cf.status, 'fail');
    assert.equal(cf.capReason, 'H3');
    assert.match(cf.evidence, /cf-mitigated: challenge/);
    const dd = check.run(home('<html><script src="https://ct.captcha-delivery.com/c.js"></script></html>', { status: 403 }));
    assert.equal(dd.capReason, 'H3');
    assert.match(dd.evidence, /DataDome/);
  });

  it('fails with H3 on a store password page', () => {
    const a = makeArtifacts({
      home: okResource(`${ORIGIN}/password`, '<html>Opening soon</html>', { redirects: [`${ORIGIN}/password`], requestedUrl: `${ORIGIN}/` }),
    });
    const out = check.run(a);
    assert.equal(out.status, 'fail');
    assert.equal(out.capReason, 'H3');
    assert.match(out.evidence, /password page/);
    const form = makeArtifacts({
      home: okResource(`${ORIGIN}/`, '<html></html>'),
      homePage: makePage({ forms: [{ action: `${ORIGIN}/password`, method: 'post', inputs: [{ name: 'password', type: 'password', value: '' }], buttons: ['Enter'] }] }),
    });
    assert.equal(check.run(form).capReason, 'H3');
  });

  it('fails without a cap on a bare 5xx, a plain 403 or a timeout', () => {
    const down = check.run(home('<h1>Bad gateway</h1>', { status: 502 }));
    assert.equal(down.status, 'fail');
    assert.equal(down.capReason, undefined);
    assert.match(down.evidence, /502/);
    const forbidden = check.run(home('<h1>Forbidden</h1>', { status: 403 }));
    assert.equal(forbidden.capReason, undefined);
    const timeout = check.run(makeArtifacts({ home: failResource(`${ORIGIN}/`, 'timeout') }));
    assert.equal(timeout.status, 'fail');
    assert.equal(timeout.capReason, undefined);
    assert.match(timeout.evidence, /timeout/);
  });

  it('does not take a reCAPTCHA on an ordinary 200 page for a challenge', () => {
    const out = check.run(home('<html><title>Shop</title><script src="https://www.google.com/recaptcha/api.js"></script></html>'));
    assert.equal(out.status, 'pass');
  });
});
