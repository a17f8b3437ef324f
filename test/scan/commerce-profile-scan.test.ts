// UCP and ACP versions end to end: GET /api/v1/scan on the real app against loopback stores that are complete except
// for their commerce profile, one per released version (docs/checks.md §11). Each published example is accepted by its
// own version's rules, an older one is never reported missing, the evidence names its version and the newest known,
// and the fix asks only for the fields of the store's version. The documents are the published examples of
// test/fixtures/protocols and of the real-fixture corpus, with their example hosts pointed at the loopback store.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { getJson, startApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureRoutes } from '../helpers/fixture-store.js';
import { readProtocolFixture, readRealFixture, requireRealFixtures } from '../helpers/artifacts.js';
import { ScanResult } from '../../schemas/scan-result.js';
import { completeStore, json } from '../fixtures/stores.js';

type Doc = { text: string } | { real: string; key?: string };

interface Case {
  name: string;
  ucp?: Doc;
  acp?: Doc;
  edit?: (doc: Record<string, unknown>) => void; // applied to the UCP document
  status: 'pass' | 'partial';
  evidence: RegExp;
  version: { ucp: string | null; acp: string | null };
  how?: { has: string; lacks?: string };
}

const CASES: Case[] = [
  {
    name: 'UCP 2026-01-11 (transport-object services, array capabilities; UCP samples)',
    ucp: { real: 'ucp-samples-a2a-business-profile.ucp.json' },
    status: 'pass',
    evidence: /^UCP 2026-01-11, newest known 2026-08-25 at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/ucp \(transport object services; a2a /,
    version: { ucp: '2026-01-11', acp: null },
  },
  {
    name: 'UCP as the 2026-01-23 release shows it (bindings array, still labelled 2026-01-11)',
    ucp: { text: 'ucp-2026-01-23-spec-business-profile.json' },
    status: 'pass',
    evidence: /^UCP 2026-01-11, newest known 2026-08-25 at .*\(bindings array services; rest http:\/\/127\.0\.0\.1:\d+\/ucp\/v1, mcp .*; 1 keys in signing_keys\[\]\)\.$/,
    version: { ucp: '2026-01-11', acp: null },
  },
  {
    name: 'UCP 2026-04-08 (signing_keys with a keys mirror)',
    ucp: { text: 'ucp-2026-04-08-spec-business-profile.json' },
    status: 'pass',
    evidence: /^UCP 2026-04-08, newest known 2026-08-25 at .*2 keys in signing_keys\[\] \(mirrored in keys\[\]\)\)\.$/,
    version: { ucp: '2026-04-08', acp: null },
  },
  {
    name: 'UCP 2026-08-25 (keys only)',
    ucp: { text: 'ucp-2026-08-25-spec-business-profile.json' },
    status: 'pass',
    evidence: /^UCP 2026-08-25, the newest known at .*2 keys in keys\[\]\)\.$/,
    version: { ucp: '2026-08-25', acp: null },
  },
  {
    name: 'UCP 2026-08-25 still publishing signing_keys is partial, and its fix asks for keys',
    ucp: { text: 'ucp-2026-08-25-spec-business-profile.json' },
    edit: (doc) => {
      doc.signing_keys = doc.keys;
      delete doc.keys;
    },
    status: 'partial',
    evidence: /signing keys only in signing_keys\[\], which 2026-08-25 replaced with keys\[\]: 2026-08-25 clients find no keys\.$/,
    version: { ucp: '2026-08-25', acp: null },
    how: { has: '`keys` (a JWK Set beside the `ucp` object', lacks: 'signing_keys' },
  },
  {
    name: 'UCP 2026-04-08 without its checkout capability is partial, and its fix keeps signing_keys',
    ucp: { text: 'ucp-2026-04-08-spec-business-profile.json' },
    edit: (doc) => void delete ((doc.ucp as Record<string, Record<string, unknown>>).capabilities['dev.ucp.shopping.checkout']),
    status: 'partial',
    evidence: /no dev\.ucp\.shopping\.checkout capability\.$/,
    version: { ucp: '2026-04-08', acp: null },
    how: { has: '`signing_keys` (UCP 2026-04-08 verifiers read signing keys there)' },
  },
  {
    name: 'ACP 2026-04-17 discovery (transports, services; example bundle)',
    acp: { real: 'acp-2026-04-17-examples-agentic-checkout-incl-discovery.json', key: 'discovery_response_full' },
    status: 'pass',
    evidence: /ACP 2026-04-17, the newest known at .*transports rest, mcp; services checkout, orders, delegate_payment\)\.$/,
    version: { ucp: null, acp: '2026-04-17' },
  },
  {
    name: 'ACP 2025-09-29 discovery (minimal example) is accepted as it is',
    acp: { real: 'acp-2026-04-17-examples-agentic-checkout-incl-discovery.json', key: 'discovery_response_minimal' },
    status: 'pass',
    evidence: /ACP 2025-09-29, newest known 2026-04-17 at .*transports rest; services checkout\)\.$/,
    version: { ucp: null, acp: '2025-09-29' },
  },
];

function load(doc: Doc, dir: string | null, origin: string): Record<string, unknown> {
  const raw = 'text' in doc ? readProtocolFixture(doc.text) : readRealFixture(dir!, join('wellknown', doc.real));
  const parsed = JSON.parse(raw.replaceAll('https://business.example.com', origin)) as Record<string, unknown>;
  return 'key' in doc && doc.key ? (parsed[doc.key] as Record<string, unknown>) : parsed;
}

test('GET /api/v1/scan accepts every released UCP and ACP version by its own rules', async (t) => {
  const app = await startApp(t);
  for (const c of CASES) {
    await t.test(c.name, async (st) => {
      const needsReal = [c.ucp, c.acp].some((d) => d && 'real' in d);
      const dir = needsReal ? requireRealFixtures(st) : null;
      if (needsReal && !dir) return;
      const shop = await startStoreFrom((origin) => {
        const routes: FixtureRoutes = completeStore(origin);
        delete routes['/.well-known/ucp'];
        delete routes['/.well-known/acp.json'];
        if (c.ucp) {
          const doc = load(c.ucp, dir, origin);
          c.edit?.(doc);
          routes['/.well-known/ucp'] = json(doc);
        }
        if (c.acp) routes['/.well-known/acp.json'] = json(load(c.acp, dir, origin));
        return routes;
      });
      st.after(() => shop.close());
      const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const body = ScanResult.parse(res.body);
      const check = body.pillars.flatMap((p) => p.checks).find((x) => x.id === 'protocol_commerce_profile')!;
      assert.equal(check.status, c.status, check.evidence);
      assert.match(check.evidence ?? '', c.evidence);
      assert.equal(body.protocols.ucp_version, c.version.ucp);
      assert.equal(body.protocols.acp_version, c.version.acp);
      const fix = body.top_fixes.find((f) => f.check_id === 'protocol_commerce_profile');
      if (c.status === 'pass') assert.equal(fix, undefined);
      if (c.how) {
        assert.ok(fix?.how.includes(c.how.has), fix?.how);
        if (c.how.lacks) assert.ok(!fix?.how.includes(c.how.lacks), `the fix does not ask for ${c.how.lacks}: ${fix?.how}`);
      }
    });
  }
});
