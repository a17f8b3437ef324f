// Does the store publish an agentic-commerce profile: UCP at /.well-known/ucp or ACP discovery at
// /.well-known/acp.json? They are alternatives (docs/checks.md §1 rule 3): the better one counts, never both.
import { defineCheck } from '../../check.js';
import type { CheckOutcome } from '../../check.js';
import type { Artifacts } from '../../artifacts.js';
import { describe } from '../evidence.js';
import { isJsonType, responseOf } from '../resources.js';
import { isAbsoluteHttpUrl } from '../urls.js';
import { DATE_VERSION, readAcp, readUcp } from '../../protocol-documents.js';

const RANK = { pass: 2, partial: 1, fail: 0 } as const;

function storeIsHttps(a: Artifacts): boolean {
  return (responseOf(a.home)?.url ?? a.origin).toLowerCase().startsWith('https://');
}

function judgeUcp(a: Artifacts): CheckOutcome {
  const ucp = readUcp(a);
  const res = responseOf(a.ucp);
  if (!ucp || !res) return { status: 'fail', evidence: `UCP ${describe(a.ucp)}: no UCP profile` };
  const problems: string[] = [];
  if (!ucp.wrapped) problems.push('legacy flat shape (no top-level "ucp" object)');
  if (!ucp.version || !DATE_VERSION.test(ucp.version)) problems.push(`version ${JSON.stringify(ucp.version)} is not YYYY-MM-DD`);
  if (ucp.shape === 'none') problems.push('no services["dev.ucp.shopping"]');
  else if (ucp.bindings.length === 0) {
    problems.push(`no dev.ucp.shopping binding with an absolute endpoint${ucp.templatedEndpoints.length > 0 ? ` (found ${JSON.stringify(ucp.templatedEndpoints[0].slice(0, 60))})` : ''}`);
  }
  if (!ucp.capabilities.includes('dev.ucp.shopping.checkout')) problems.push('no dev.ucp.shopping.checkout capability');
  if (!isJsonType(res.contentType)) problems.push(`served as ${res.contentType || 'no content type'}, not JSON`);
  if (storeIsHttps(a) && ucp.bindings.length > 0 && ucp.bindings.every((b) => b.endpoint.toLowerCase().startsWith('http://'))) {
    problems.push('endpoints on http while the store is on https');
  }
  const found = `UCP ${ucp.version ?? '(no version)'} at ${res.url} (${ucp.shape} shape; ${ucp.bindings.map((b) => `${b.transport} ${b.endpoint}`).join(', ') || 'no endpoint'}; ${ucp.capabilities.length} capabilities)`;
  if (problems.length > 0) return { status: 'partial', evidence: `${found}: ${problems.join('; ')}` };
  return { status: 'pass', evidence: found };
}

function judgeAcp(a: Artifacts): CheckOutcome {
  const acp = readAcp(a);
  const res = responseOf(a.acp);
  if (!acp || !res) return { status: 'fail', evidence: `ACP ${describe(a.acp)}: no ACP discovery document` };
  const problems: string[] = [];
  if (!acp.version || !DATE_VERSION.test(acp.version)) problems.push(`version ${JSON.stringify(acp.version)} is not YYYY-MM-DD`);
  if (!isAbsoluteHttpUrl(acp.apiBaseUrl)) problems.push('no absolute api_base_url');
  else if (storeIsHttps(a) && acp.apiBaseUrl.toLowerCase().startsWith('http://')) problems.push('api_base_url on http while the store is on https');
  if (!acp.transports.some((t) => t === 'rest' || t === 'mcp')) problems.push('transports has neither rest nor mcp');
  if (!acp.services.includes('checkout')) problems.push('capabilities.services lacks checkout');
  if (!isJsonType(res.contentType)) problems.push(`served as ${res.contentType || 'no content type'}, not JSON`);
  const found = `ACP ${acp.version ?? '(no version)'} at ${res.url} (api ${acp.apiBaseUrl ?? 'none'}; transports ${acp.transports.join(', ') || 'none'}; services ${acp.services.join(', ') || 'none'})`;
  if (problems.length > 0) return { status: 'partial', evidence: `${found}: ${problems.join('; ')}` };
  return { status: 'pass', evidence: found };
}

export default defineCheck({
  id: 'protocol_commerce_profile',
  pillar: 'protocols',
  order: 1,
  points: 5,
  partialPoints: 2,
  label: 'Agentic commerce profile (UCP or ACP)',
  title: 'The store publishes an agentic commerce profile (UCP or ACP)',
  failureTitle: 'Publish a UCP profile (or ACP discovery)',
  why: 'UCP and ACP profiles tell agents how to build a cart and check out on your store through an API, instead of clicking through pages.',
  how: 'Serve `/.well-known/ucp` as `application/json` with a `ucp` object: `version` (e.g. `2026-04-08`), `services` with a `dev.ucp.shopping` binding (transport `mcp` or `rest` and an https endpoint), `capabilities` including `dev.ucp.shopping.checkout`, plus `signing_keys`. On Shopify this is switched on for you; elsewhere use your platform\'s UCP extension. If you sell through ChatGPT, also publish `/.well-known/acp.json` with `protocol`, `api_base_url`, `transports` and `capabilities.services`.',
  run(a) {
    const ucp = judgeUcp(a);
    const acp = judgeAcp(a);
    const best = RANK[acp.status] > RANK[ucp.status] ? acp : ucp;
    const other = best === ucp ? acp : ucp;
    if (best.status === 'fail') return { status: 'fail', evidence: `${ucp.evidence}; ${acp.evidence}.` };
    return { status: best.status, evidence: `${best.evidence}${other.status !== 'fail' ? `; also ${other.evidence}` : ''}.` };
  },
});
