// discovery_canonical: every PDP has an absolute, self-referencing canonical on its host (query aside) → pass;
// missing, relative or pointing elsewhere → fail. No partial grade.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/discovery/discovery_canonical.js';
import { ORIGIN, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const canon = (href: string) => ({ headLinks: [{ rel: ['canonical'], href, type: null }], canonical: new URL(href, ORIGIN).href });

describe('discovery_canonical', () => {
  it('passes on an absolute self-referencing canonical, ignoring the query string', () => {
    const pdp = makePdp({ url: `${ORIGIN}/products/widget?variant=1`, ...canon(`${ORIGIN}/products/widget`) });
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /canonical https:\/\/store.example\/products\/widget/);
  });

  it('fails when one of two PDPs points elsewhere (no partial)', () => {
    const good = makePdp(canon(`${ORIGIN}/products/widget`));
    const bad = makePdp({ url: `${ORIGIN}/products/gadget`, ...canon(`${ORIGIN}/collections/all`) });
    const out = check.run(makeArtifacts({ pdps: [good, bad] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /canonical points elsewhere: https:\/\/store.example\/collections\/all/);
  });

  it('fails on a relative or missing canonical, and without product pages', () => {
    assert.match(check.run(makeArtifacts({ pdps: [makePdp(canon('/products/widget'))] })).evidence, /relative canonical/);
    assert.match(check.run(makeArtifacts({ pdps: [makePdp()] })).evidence, /no rel=canonical/);
    const none = check.run(makeArtifacts());
    assert.equal(none.status, 'fail');
    assert.equal(none.evidence, 'no product page found');
  });
});
