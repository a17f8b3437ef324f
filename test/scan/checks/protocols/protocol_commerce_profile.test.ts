// protocol_commerce_profile on the real UCP and ACP documents of the corpus: both UCP shapes (2026-01 object,
// 2026-04 array), the keyed and array capability forms, ACP discovery; partial for incomplete profiles; fail for none.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_commerce_profile.js';
import { ORIGIN, jsonResource, makeArtifacts, okResource, readRealFixture, requireRealFixtures } from '../../../helpers/artifacts.js';

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
  it('passes on the 2026-01 object shape with array capabilities (UCP samples, a2a binding)', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const out = check.run(withUcp(wellknown(dir, 'ucp-samples-a2a-business-profile.ucp.json')));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /UCP 2026-01-11 .*2026-01 object shape; a2a http:\/\/localhost:10999/);
  });

  it('passes on the 2026-04 array shape with keyed capabilities', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const doc = wellknown(dir, 'ucp-spec-scaffold-business-profile.ucp.json');
    const ucp = doc.ucp as Record<string, unknown>;
    ucp.capabilities = { 'dev.ucp.shopping.checkout': [{ version: '2026-01-01' }] };
    const out = check.run(withUcp(doc, 'application/json', ORIGIN));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /2026-04 array shape; rest https:\/\/business.example.com\/ucp\/v1/);
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
    assert.match(full.evidence, /ACP 2026-04-17 .*api https:\/\/acp.stripe.com\/api; transports rest, mcp; services checkout, orders, delegate_payment/);
    assert.equal(check.run(withAcp(bundle.discovery_response_minimal)).status, 'pass');
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
