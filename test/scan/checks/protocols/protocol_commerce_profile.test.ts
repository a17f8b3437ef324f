// protocol_commerce_profile on the real UCP and ACP documents of the corpus and the published examples of every UCP
// release (test/fixtures/protocols): both service shapes (2026-01-11 transport object, the bindings array of 2026-01-23
// on), the keyed and array capability forms, signing keys where each version's clients read them, ACP discovery with
// and without transports; partial for incomplete profiles; fail for none. The fix names the store's version's fields.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_commerce_profile.js';
import { ORIGIN, jsonResource, makeArtifacts, okResource, readProtocolFixture, readRealFixture, requireRealFixtures } from '../../../helpers/artifacts.js';

function withUcp(doc: unknown, contentType = 'application/json', origin = 'http://store.example') {
  const { resource, json } = jsonResource('/.well-known/ucp', doc, contentType);
  return makeArtifacts({ origin, home: okResource(`${origin}/`, '<html></html>'), ucp: resource, ucpJson: json });
}

function withAcp(doc: unknown) {
  const { resource, json } = jsonResource('/.well-known/acp.json', doc);
  return makeArtifacts({ home: okResource(`${ORIGIN}/`, '<html></html>'), acp: resource, acpJson: json });
}

const wellknown = (dir: string, f: string) => JSON.parse(readRealFixture(dir, join('wellknown', f))) as Record<string, unknown>;

describe('protocol_commerce_profile', () => {
  it('passes on the 2026-01-11 transport-object shape with array capabilities (UCP samples, a2a binding)', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const out = check.run(withUcp(wellknown(dir, 'ucp-samples-a2a-business-profile.ucp.json')));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /UCP 2026-01-11, newest known 2026-08-25 at .*\(transport object services; a2a http:\/\/localhost:10999/);
  });

  it('passes on the bindings-array shape with keyed capabilities', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const doc = wellknown(dir, 'ucp-spec-scaffold-business-profile.ucp.json');
    const ucp = doc.ucp as Record<string, unknown>;
    ucp.capabilities = { 'dev.ucp.shopping.checkout': [{ version: '2026-01-01' }] };
    const out = check.run(withUcp(doc, 'application/json', ORIGIN));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /UCP 2026-01-01, not a released version \(newest known 2026-08-25\) at .*\(bindings array services; rest https:\/\/business.example.com\/ucp\/v1; 1 capabilities; 1 keys in keys\[\]\)\.$/);
  });

  const spec = (f: string) => JSON.parse(readProtocolFixture(f)) as Record<string, unknown>;
  const https = (doc: unknown) => withUcp(doc, 'application/json', ORIGIN);

  it('passes on the published business profile of every UCP release, naming its version and the newest known', () => {
    const cases: [string, RegExp][] = [
      ['ucp-2026-01-23-spec-business-profile.json', /^UCP 2026-01-11, newest known 2026-08-25 at .*\(bindings array services; rest https:\/\/business\.example\.com\/ucp\/v1, mcp .*; 3 capabilities; 1 keys in signing_keys\[\]\)\.$/],
      ['ucp-2026-04-08-spec-business-profile.json', /^UCP 2026-04-08, newest known 2026-08-25 at .*; 4 capabilities; 2 keys in signing_keys\[\] \(mirrored in keys\[\]\)\)\.$/],
      ['ucp-2026-08-25-spec-business-profile.json', /^UCP 2026-08-25, the newest known at .*; 4 capabilities; 2 keys in keys\[\]\)\.$/],
    ];
    for (const [file, evidence] of cases) {
      const out = check.run(https(spec(file)));
      assert.equal(out.status, 'pass', `${file}: ${out.evidence}`);
      assert.match(out.evidence, evidence);
    }
  });

  it('judges signing keys by the version: keys[] from 2026-08-25, signing_keys[] before', () => {
    const latest = spec('ucp-2026-08-25-spec-business-profile.json');
    latest.signing_keys = latest.keys;
    delete latest.keys;
    const stale = check.run(https(latest));
    assert.equal(stale.status, 'partial');
    assert.match(stale.evidence, /signing keys only in signing_keys\[\], which 2026-08-25 replaced with keys\[\]: 2026-08-25 clients find no keys/);
    assert.ok(stale.how?.includes('`keys` (a JWK Set'), stale.how);
    assert.ok(!stale.how?.includes('signing_keys'), 'the fix for a 2026-08-25 store never asks for signing_keys');
    const april = spec('ucp-2026-04-08-spec-business-profile.json');
    delete april.signing_keys;
    const mirrorOnly = check.run(https(april));
    assert.equal(mirrorOnly.status, 'partial');
    assert.match(mirrorOnly.evidence, /signing keys only in keys\[\], while 2026-04-08 clients read signing_keys\[\]/);
    assert.ok(mirrorOnly.how?.includes('`signing_keys` (UCP 2026-04-08 verifiers read signing keys there)'), mirrorOnly.how);
    assert.ok(mirrorOnly.how?.includes('`version` (`2026-04-08`)'), mirrorOnly.how);
  });

  it('reads a version newer than the newest known by the newest rules', () => {
    const future = spec('ucp-2026-08-25-spec-business-profile.json');
    (future.ucp as Record<string, unknown>).version = '2027-01-15';
    const out = check.run(https(future));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /^UCP 2027-01-15, newer than the newest known 2026-08-25, read by 2026-08-25 rules at /);
  });

  it('is partial on the real scaffold (no checkout capability) and the templated REST sample', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const scaffold = check.run(withUcp(wellknown(dir, 'ucp-spec-scaffold-business-profile.ucp.json')));
    assert.equal(scaffold.status, 'partial');
    assert.match(scaffold.evidence, /no dev.ucp.shopping.checkout capability/);
    const templated = check.run(withUcp(wellknown(dir, 'ucp-samples-rest-business-profile-templated-endpoint.ucp.json')));
    assert.equal(templated.status, 'partial');
    assert.match(templated.evidence, /no dev.ucp.shopping binding with an absolute endpoint \(found "\{\{ENDPOINT\}\}"\)/);
    const platform = check.run(withUcp(wellknown(dir, 'ucp-samples-platform-agent-profile.ucp.json')));
    assert.equal(platform.status, 'partial');
    assert.match(platform.evidence, /no services\["dev.ucp.shopping"\]/);
  });

  it('is partial when an https store declares http endpoints, or serves JSON as text/plain', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const doc = wellknown(dir, 'ucp-samples-a2a-business-profile.ucp.json');
    assert.match(check.run(withUcp(doc, 'application/json', ORIGIN)).evidence, /endpoints on http while the store is on https/);
    assert.match(check.run(withUcp(doc, 'text/plain')).evidence, /served as text\/plain, not JSON/);
  });

  it('passes on the real ACP discovery documents (full and minimal)', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const bundle = wellknown(dir, 'acp-2026-04-17-examples-agentic-checkout-incl-discovery.json');
    const full = check.run(withAcp(bundle.discovery_response_full));
    assert.equal(full.status, 'pass');
    assert.match(full.evidence, /ACP 2026-04-17, .*api https:\/\/acp.stripe.com\/api; transports rest, mcp; services checkout, orders, delegate_payment/);
    assert.match(full.evidence, /^ACP 2026-04-17, the newest known at /);
    const minimal = check.run(withAcp(bundle.discovery_response_minimal));
    assert.equal(minimal.status, 'pass');
    assert.match(minimal.evidence, /^ACP 2025-09-29, newest known 2026-04-17 at .*transports rest; services checkout\)\.$/);
  });

  it('requires transports only from ACP 2026-04-17', () => {
    const old = { protocol: { name: 'acp', version: '2026-01-30' }, api_base_url: 'https://store.example/api', capabilities: { services: ['checkout'] } };
    const before = check.run(withAcp(old));
    assert.equal(before.status, 'pass', before.evidence);
    assert.match(before.evidence, /transports rest, implied before 2026-04-17/);
    const after = check.run(withAcp({ ...old, protocol: { name: 'acp', version: '2026-04-17' } }));
    assert.equal(after.status, 'partial');
    assert.match(after.evidence, /transports has neither rest nor mcp/);
  });

  it('is partial on ACP without checkout, on a legacy flat UCP shape, and on a non-date version', () => {
    const acp = check.run(withAcp({ protocol: { name: 'acp', version: '2026-04-17' }, api_base_url: 'https://store.example/api', transports: ['rest'], capabilities: { services: ['orders'] } }));
    assert.equal(acp.status, 'partial');
    assert.match(acp.evidence, /lacks checkout/);
    const flat = check.run(withUcp({ version: 'v1', services: {}, capabilities: ['dev.ucp.shopping.checkout'] }));
    assert.equal(flat.status, 'partial');
    assert.match(flat.evidence, /legacy flat shape.*version "v1" is not YYYY-MM-DD/);
  });

  it('fails when neither document exists, or on HTML and invalid JSON', () => {
    const none = check.run(makeArtifacts({ ucp: okResource(`${ORIGIN}/.well-known/ucp`, 'Not found', { status: 404 }) }));
    assert.equal(none.status, 'fail');
    assert.match(none.evidence, /UCP .*404 text\/html: no UCP profile; ACP .*not fetched/);
    assert.equal(check.run(withUcp('<!doctype html><html></html>', 'text/html')).status, 'fail');
    assert.equal(check.run(withUcp('{"ucp": {', 'application/json')).status, 'fail');
  });
});
