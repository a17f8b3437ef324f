// How one agent's answer compares with the browser-like request's (scan/agents/judge.ts): a block, a challenge, a rate
// limit, a degraded page or the page; and the product facts an agent would quote, said in words when they differ.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accessOf, factDifferences, visitOf } from '../../../scan/agents/judge.js';
import { ORIGIN, okResource, response } from '../../helpers/artifacts.js';

const PAGE = `<html><head><title>Kettle</title></head><body>${'kettle '.repeat(400)}</body></html>`;
const browser = response(`${ORIGIN}/p`, PAGE);
const FACTS = { name: 'Copper Kettle', price: 89, currency: 'EUR', availability: 'InStock' };

describe('an agent answer against the browser-like one', () => {
  it('the page, a block, a challenge, a rate limit, a degraded page', () => {
    assert.equal(accessOf(response(`${ORIGIN}/p`, PAGE), browser).access, 'served');
    assert.equal(accessOf(response(`${ORIGIN}/p`, 'no', { status: 403 }), browser).access, 'blocked');
    assert.equal(accessOf(response(`${ORIGIN}/p`, 'gone', { status: 404 }), browser).access, 'blocked');
    const challenge = accessOf(response(`${ORIGIN}/p`, '<title>Just a moment...</title>', { status: 403, headers: { 'cf-mitigated': 'challenge' } }), browser);
    assert.deepEqual(challenge, { access: 'challenged', challenge: 'cf-mitigated: challenge' });
    assert.equal(accessOf(response(`${ORIGIN}/p`, 'slow', { status: 429 }), browser).access, 'rate_limited');
    assert.equal(accessOf(response(`${ORIGIN}/p`, '<title>Lite</title>tiny'), browser).access, 'degraded');
    assert.equal(accessOf(response(`${ORIGIN}/p`, '<title>Kettle</title>tiny'), browser).access, 'served', 'a smaller page with the same title is the page');
    assert.equal(accessOf(null, browser).access, 'failed');
  });

  it('says which facts differ: name, price with currency, stock; nothing when they agree', () => {
    assert.deepEqual(factDifferences(FACTS, FACTS), []);
    assert.deepEqual(factDifferences({ ...FACTS, name: ' copper  KETTLE ' }, FACTS), [], 'spacing and case are no difference');
    assert.deepEqual(factDifferences({ ...FACTS, price: 79 }, FACTS), ['price 79 EUR, not 89 EUR']);
    assert.deepEqual(factDifferences({ ...FACTS, availability: 'OutOfStock' }, FACTS), ['stock OutOfStock, not InStock']);
    assert.deepEqual(factDifferences({ ...FACTS, name: 'Steel Kettle', currency: 'USD' }, FACTS), ['name "Steel Kettle", not "Copper Kettle"', 'price 89 USD, not 89 EUR']);
    assert.deepEqual(factDifferences(null, FACTS), ['no product facts, where a browser-like request read "Copper Kettle"']);
    assert.deepEqual(factDifferences(FACTS, null), [], 'nothing to compare with');
  });

  it('a visit keeps status, server, title and time, and compares facts only on a page it got', () => {
    const v = visitOf({ url: `${ORIGIN}/p`, resource: okResource(`${ORIGIN}/p`, PAGE, { headers: { server: 'nginx' } }), baseline: browser, facts: { ...FACTS, price: 79 }, baselineFacts: FACTS });
    assert.equal(v.access, 'served');
    assert.equal(v.server, 'nginx');
    assert.equal(v.title, 'Kettle');
    assert.deepEqual(v.differences, ['price 79 EUR, not 89 EUR']);
    const blocked = visitOf({ url: `${ORIGIN}/p`, resource: okResource(`${ORIGIN}/p`, 'no', { status: 403 }), baseline: browser, facts: null, baselineFacts: FACTS });
    assert.deepEqual(blocked.differences, [], 'a blocked answer has no facts to compare');
  });
});
