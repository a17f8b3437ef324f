// trust_https: https with HSTS max-age ≥ 180 days → pass; https without (or with shorter) HSTS → partial; http → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/trust/trust_https.js';
import { makeArtifacts, okResource } from '../../../helpers/artifacts.js';

const home = (url: string, headers: Record<string, string> = {}) => makeArtifacts({ home: okResource(url, '<html></html>', { headers }) });

describe('trust_https', () => {
  it('passes with a year of HSTS', () => {
    const out = check.run(home('https://store.example/', { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /Strict-Transport-Security: max-age=31536000/);
  });

  it('is partial with short or missing HSTS', () => {
    const short = check.run(home('https://store.example/', { 'strict-transport-security': 'max-age=86400' }));
    assert.equal(short.status, 'partial');
    assert.match(short.evidence, /max-age 86400 is under 180 days/);
    assert.match(check.run(home('https://store.example/')).evidence, /HTTPS without a Strict-Transport-Security header/);
  });

  it('fails on plain http', () => {
    const out = check.run(home('http://store.example/'));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /plain HTTP: http:\/\/store.example\/ → 200/);
  });
});
