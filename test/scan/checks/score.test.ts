// score(): points, pillar sums, the hard-block cap, grade bands and fix ordering on the archetypes of
// docs/checks.md §6, with the real check definitions and hand-set outcomes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { CheckOutcome, CheckStatus } from '../../../scan/checks/check.js';
import { defineCheck } from '../../../scan/checks/check.js';
import { CHECKS, runChecks } from '../../../scan/checks/registry.js';
import type { CheckId } from '../../../scan/checks/rubric.js';
import { CAP_NOTE, gradeFor, score } from '../../../scan/checks/score.js';
import { Fix, Grade, Pillar } from '../../../schemas/scan-result.js';
import { makeArtifacts } from '../../helpers/artifacts.js';

/** Every check passes unless listed. */
function results(statuses: Partial<Record<CheckId, CheckStatus | CheckOutcome>> = {}) {
  return CHECKS.map((def) => {
    const s = statuses[def.id] ?? 'pass';
    return { def, outcome: typeof s === 'string' ? { status: s, evidence: `${def.id} ${s}` } : s };
  });
}

function assertShape(out: ReturnType<typeof score>) {
  z.array(Pillar).parse(out.pillars);
  z.array(Fix).parse(out.top_fixes);
  Grade.parse(out.grade);
}

describe('score', () => {
  it('gives 100 / A with no fixes when everything passes', () => {
    const out = score(results());
    assertShape(out);
    assert.equal(out.score, 100);
    assert.equal(out.grade, 'A');
    assert.equal(out.capped, false);
    assert.equal(out.cap_reason, null);
    assert.deepEqual(out.top_fixes, []);
    assert.deepEqual(out.pillars.map((p) => [p.id, p.score, p.max, p.checks.length]), [
      ['access', 20, 20, 6],
      ['discovery', 15, 15, 7],
      ['product_data', 30, 30, 10],
      ['trust', 15, 15, 6],
      ['protocols', 12, 12, 5],
      ['checkout', 8, 8, 4],
    ]);
  });

  it('scores a complete store (UCP, MCP, llms.txt, full Offer/return/shipping nodes) ≈ 95, grade A', () => {
    const out = score(results({ protocol_api_catalog: 'fail', protocol_markdown: 'fail', discovery_link_headers: 'fail', product_identifiers: 'partial' }));
    assert.equal(out.score, 95);
    assert.equal(out.grade, 'A');
    assert.deepEqual(out.top_fixes.map((f) => [f.check_id, f.points]), [
      ['product_identifiers', 2],
      ['discovery_link_headers', 1],
      ['protocol_markdown', 1],
      ['protocol_api_catalog', 1],
    ]);
  });

  it('scores a typical theme store (JSON-LD, linked policies, no agent protocols) ≈ 72, grade B', () => {
    const out = score(
      results({
        access_ai_policy_declared: 'fail',
        discovery_llms_txt: 'fail',
        discovery_link_headers: 'fail',
        product_identifiers: 'partial',
        product_brand: 'partial',
        product_attributes: 'fail',
        trust_return_policy: 'partial',
        trust_shipping_policy: 'partial',
        trust_organization: 'partial',
        trust_reviews: 'fail',
        protocol_commerce_profile: 'fail',
        protocol_mcp_endpoint: 'fail',
        protocol_mcp_server_card: 'fail',
        protocol_markdown: 'fail',
        protocol_api_catalog: 'fail',
        checkout_guest: 'partial',
      }),
    );
    assert.equal(out.score, 72);
    assert.equal(out.grade, 'B');
    assert.equal(out.pillars.find((p) => p.id === 'protocols')?.score, 0);
    assert.deepEqual(out.top_fixes.slice(0, 3).map((f) => [f.check_id, f.points]), [
      ['protocol_commerce_profile', 5],
      ['protocol_mcp_endpoint', 4],
      ['discovery_llms_txt', 3],
    ]);
  });

  it('caps a store that blocks the live agents at 35 (E) and puts the unblock fix first with its projected gain', () => {
    const out = score(results({ access_live_agents_robots: 'fail', protocol_api_catalog: 'fail' }));
    assertShape(out);
    assert.equal(out.capped, true);
    assert.equal(out.cap_reason, 'H1');
    assert.equal(out.score, 35);
    assert.equal(out.grade, 'E');
    // raw 93; with the robots check passing and the cap lifted: 99 → 99 − 35 = 64.
    assert.deepEqual(out.top_fixes[0], {
      check_id: 'access_live_agents_robots',
      title: 'Allow AI shopping agents in robots.txt',
      effort: 'a few minutes',
      points: 64,
      how: CHECKS.find((c) => c.id === 'access_live_agents_robots')?.how,
    });
    assert.equal(out.top_fixes[1].check_id, 'protocol_api_catalog');
    assert.equal(out.top_fixes[1].points, 1);
    assert.ok(out.top_fixes[1].how.endsWith(CAP_NOTE));
    const check = out.pillars[0].checks.find((c) => c.id === 'access_live_agents_robots');
    assert.deepEqual(check && [check.status, check.points, check.max, check.hard_block, check.title], ['fail', 0, 6, true, 'Allow AI shopping agents in robots.txt']);
  });

  it('caps on a bot wall (H2 by default) and keeps a raw score below 35', () => {
    const statuses: Record<string, CheckStatus> = { access_no_bot_wall: 'fail' };
    for (const c of CHECKS.filter((c) => ['discovery', 'product_data', 'trust', 'protocols'].includes(c.pillar))) statuses[c.id] = 'fail';
    const out = score(results(statuses));
    assert.equal(out.capped, true);
    assert.equal(out.cap_reason, 'H2');
    assert.equal(out.score, 14 + 8);
    assert.equal(out.grade, 'E');
    assert.deepEqual([out.top_fixes[0].check_id, out.top_fixes[0].points], ['access_no_bot_wall', 6]);
  });

  it('caps on H3 only when the storefront check says so', () => {
    const plain = score(results({ access_storefront_reachable: 'fail' }));
    assert.equal(plain.capped, false);
    assert.equal(plain.score, 97);
    assert.equal(plain.top_fixes[0].points, 3);
    const closed = score(results({ access_storefront_reachable: { status: 'fail', evidence: '401', capReason: 'H3' } }));
    assert.equal(closed.capped, true);
    assert.equal(closed.cap_reason, 'H3');
    assert.equal(closed.score, 35);
    assert.equal(closed.top_fixes[0].check_id, 'access_storefront_reachable');
    assert.equal(closed.top_fixes[0].points, 100 - 35);
  });

  it('reports the first cap code when several hard blocks fail, each unblock fix sorting first', () => {
    const out = score(results({ access_live_agents_robots: 'fail', access_no_bot_wall: 'fail' }));
    assert.equal(out.cap_reason, 'H1');
    assert.deepEqual(out.top_fixes.map((f) => f.check_id), ['access_live_agents_robots', 'access_no_bot_wall']);
    assert.deepEqual(out.top_fixes.map((f) => f.points), [88 + 6 - 35, 88 + 6 - 35]);
  });

  it('does not cap on a partial hard-block check', () => {
    const out = score(results({ access_live_agents_robots: 'partial' }));
    assert.equal(out.capped, false);
    assert.equal(out.score, 97);
    assert.equal(out.pillars[0].checks[1].title, 'Allow AI shopping agents in robots.txt');
  });

  it('puts grade boundaries at 85, 70, 55 and 40', () => {
    assert.deepEqual([100, 85, 84, 70, 69, 55, 54, 40, 39, 0].map(gradeFor), ['A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'E', 'E']);
    // 15 points off through three 5-point product checks: exactly 85.
    const out = score(results({ product_structured_data: 'fail', product_price: 'fail', protocol_commerce_profile: 'fail' }));
    assert.equal(out.score, 85);
    assert.equal(out.grade, 'A');
    const b = score(
      results({
        product_structured_data: 'fail',
        product_price: 'fail',
        protocol_commerce_profile: 'partial',
        protocol_markdown: 'fail',
        protocol_api_catalog: 'fail',
        protocol_mcp_server_card: 'fail',
      }),
    );
    assert.equal(b.score, 84);
    assert.equal(b.grade, 'B');
  });

  it('orders ties by pillar, then by check order', () => {
    const out = score(
      results({
        protocol_api_catalog: 'fail',
        discovery_site_search: 'fail',
        access_ai_policy_declared: 'fail',
        discovery_canonical: 'fail',
        trust_reviews: 'fail',
        product_open_graph: 'fail',
      }),
    );
    assert.deepEqual(out.top_fixes.map((f) => f.check_id), [
      'access_ai_policy_declared',
      'discovery_canonical',
      'discovery_site_search',
      'product_open_graph',
      'trust_reviews',
      'protocol_api_catalog',
    ]);
    assert.ok(out.top_fixes.every((f) => f.points === 1 && !f.how.includes(CAP_NOTE)));
  });

  it('scores a throwing check as a fail that never caps', () => {
    const robots = CHECKS.find((c) => c.id === 'access_live_agents_robots')!;
    const broken = defineCheck({
      ...robots,
      run() {
        throw new Error('bug');
      },
    });
    const others = CHECKS.filter((c) => c.id !== robots.id);
    const ran = runChecks(makeArtifacts(), () => {}, [broken, ...others]);
    const out = score(ran.map((r) => (r.def.id === robots.id ? r : { def: r.def, outcome: { status: 'pass' as const, evidence: '' } })));
    assert.equal(out.capped, false);
    assert.equal(out.score, 94);
    const check = out.pillars[0].checks.find((c) => c.id === robots.id);
    assert.equal(check?.status, 'fail');
    assert.match(check?.evidence ?? '', /internal error/);
  });
});
