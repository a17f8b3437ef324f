// Does the store publish an agentic-commerce profile: UCP at /.well-known/ucp or ACP discovery at
// /.well-known/acp.json? They are alternatives (docs/checks.md §1 rule 3): the better one counts, never both. Every
// released version is accepted and judged by its own rules (docs/checks.md §11): an older profile is not missing,
// the evidence names its version and the newest known, and the fix asks only for fields of the store's version.
import { defineCheck } from '../check.js';
import type { CheckOutcome } from '../check.js';
import type { Artifacts } from '../../artifacts.js';
import { describe } from '../evidence.js';
import { isJsonType, responseOf } from '../../documents/resources.js';
import { isAbsoluteHttpUrl } from '../../documents/urls.js';
import {
  ACP_NEWEST,
  ACP_TRANSPORTS_SINCE,
  ACP_VERSIONS,
  UCP_KEYS_SINCE,
  UCP_NEWEST,
  UCP_VERSIONS,
  readAcp,
  readUcp,
  versionStanding,
} from '../../documents/protocol-documents.js';

const RANK = { pass: 2, partial: 1, fail: 0 } as const;

function storeIsHttps(a: Artifacts): boolean {
  return (responseOf(a.home)?.url ?? a.origin).toLowerCase().startsWith('https://');
}

/** "2026-04-08, newest known 2026-08-25", or a note when the version is not a release. */
function versionNote(version: string, released: readonly string[], newest: string): string {
  const standing = versionStanding(version, released);
  if (standing === 'newer') return `${version}, newer than the newest known ${newest}, read by ${newest} rules`;
  if (standing === 'unreleased') return `${version}, not a released version (newest known ${newest})`;
  return version === newest ? `${version}, the newest known` : `${version}, newest known ${newest}`;
}

/** The UCP fix for a store whose profile declares `version` (null: no profile, so the newest release). */
function ucpHow(version: string | null): string {
  const v = version && versionStanding(version, UCP_VERSIONS) !== 'invalid' ? version : UCP_NEWEST;
  const keys =
    v >= UCP_KEYS_SINCE
      ? `\`keys\` (a JWK Set beside the \`ucp\` object, where UCP ${v} clients read them)`
      : `\`signing_keys\` (UCP ${v} verifiers read signing keys there)`;
  const services =
    v < '2026-01-23'
      ? '`services` with a `dev.ucp.shopping` binding (in 2026-01-11 an object keyed by transport, `mcp` or `rest`, each with an https `endpoint`)'
      : '`services` with a `dev.ucp.shopping` binding (an array of `{"transport": "mcp" or "rest", "endpoint": https URL}`)';
  return `Serve \`/.well-known/ucp\` as \`application/json\` with a \`ucp\` object: \`version\` (\`${v}\`), ${services}, capabilities including \`dev.ucp.shopping.checkout\`, plus your signing keys in ${keys}. On Shopify this is switched on for you; elsewhere use your platform's UCP extension. If you sell through ChatGPT, also publish \`/.well-known/acp.json\` with \`protocol\`, \`api_base_url\`, \`transports\` and \`capabilities.services\`.`;
}

function judgeUcp(a: Artifacts): CheckOutcome {
  const ucp = readUcp(a);
  const res = responseOf(a.ucp);
  if (!ucp || !res) return { status: 'fail', evidence: `UCP ${describe(a.ucp)}: no UCP profile` };
  const problems: string[] = [];
  const standing = versionStanding(ucp.version, UCP_VERSIONS);
  if (!ucp.wrapped) problems.push('legacy flat shape (no top-level "ucp" object)');
  if (standing === 'invalid') problems.push(`version ${JSON.stringify(ucp.version)} is not YYYY-MM-DD`);
  if (ucp.shape === 'none') problems.push('no services["dev.ucp.shopping"]');
  else if (ucp.bindings.length === 0) {
    problems.push(`no dev.ucp.shopping binding with an absolute endpoint${ucp.templatedEndpoints.length > 0 ? ` (found ${JSON.stringify(ucp.templatedEndpoints[0].slice(0, 60))})` : ''}`);
  }
  if (!ucp.capabilities.includes('dev.ucp.shopping.checkout')) problems.push('no dev.ucp.shopping.checkout capability');
  if (!isJsonType(res.contentType)) problems.push(`served as ${res.contentType || 'no content type'}, not JSON`);
  if (storeIsHttps(a) && ucp.bindings.length > 0 && ucp.bindings.every((b) => b.endpoint.toLowerCase().startsWith('http://'))) {
    problems.push('endpoints on http while the store is on https');
  }
  // Signing keys must sit where verifiers of the declared version read them; released and newer versions only.
  let keys = ucp.keys > 0 ? `${ucp.keys} keys in keys[]` : ucp.signingKeys > 0 ? `${ucp.signingKeys} keys in signing_keys[]` : 'no signing keys';
  if (ucp.version && (standing === 'released' || standing === 'newer')) {
    if (ucp.version >= UCP_KEYS_SINCE && ucp.keys === 0 && ucp.signingKeys > 0) {
      problems.push(`signing keys only in signing_keys[], which ${UCP_KEYS_SINCE} replaced with keys[]: ${ucp.version} clients find no keys`);
    } else if (ucp.version < UCP_KEYS_SINCE && ucp.signingKeys === 0 && ucp.keys > 0) {
      problems.push(`signing keys only in keys[], while ${ucp.version} clients read signing_keys[]`);
    } else if (ucp.version < UCP_KEYS_SINCE && ucp.signingKeys > 0) {
      keys = `${ucp.signingKeys} keys in signing_keys[]${ucp.keys > 0 ? ' (mirrored in keys[])' : ''}`;
    }
  }
  const version = ucp.version && standing !== 'invalid' ? versionNote(ucp.version, UCP_VERSIONS, UCP_NEWEST) : '(no version)';
  const bindings = ucp.bindings.map((b) => `${b.transport} ${b.endpoint}`).join(', ') || 'no endpoint';
  const found = `UCP ${version} at ${res.url} (${ucp.shape} services; ${bindings}; ${ucp.capabilities.length} capabilities; ${keys})`;
  const how = ucpHow(ucp.version);
  if (problems.length > 0) return { status: 'partial', evidence: `${found}: ${problems.join('; ')}`, how };
  return { status: 'pass', evidence: found, how };
}

function judgeAcp(a: Artifacts): CheckOutcome {
  const acp = readAcp(a);
  const res = responseOf(a.acp);
  if (!acp || !res) return { status: 'fail', evidence: `ACP ${describe(a.acp)}: no ACP discovery document` };
  const problems: string[] = [];
  const standing = versionStanding(acp.version, ACP_VERSIONS);
  if (standing === 'invalid') problems.push(`version ${JSON.stringify(acp.version)} is not YYYY-MM-DD`);
  if (!isAbsoluteHttpUrl(acp.apiBaseUrl)) problems.push('no absolute api_base_url');
  else if (storeIsHttps(a) && acp.apiBaseUrl.toLowerCase().startsWith('http://')) problems.push('api_base_url on http while the store is on https');
  // `transports` came with 2026-04-17; an older document implies REST.
  const needsTransports = acp.version !== null && standing !== 'invalid' && acp.version >= ACP_TRANSPORTS_SINCE;
  if ((needsTransports || acp.hasTransports) && !acp.transports.some((t) => t === 'rest' || t === 'mcp')) problems.push('transports has neither rest nor mcp');
  if (!acp.services.includes('checkout')) problems.push('capabilities.services lacks checkout');
  if (!isJsonType(res.contentType)) problems.push(`served as ${res.contentType || 'no content type'}, not JSON`);
  const version = acp.version && standing !== 'invalid' ? versionNote(acp.version, ACP_VERSIONS, ACP_NEWEST) : '(no version)';
  const transports = acp.transports.join(', ') || (needsTransports ? 'none' : 'rest, implied before 2026-04-17');
  const found = `ACP ${version} at ${res.url} (api ${acp.apiBaseUrl ?? 'none'}; transports ${transports}; services ${acp.services.join(', ') || 'none'})`;
  if (problems.length > 0) return { status: 'partial', evidence: `${found}: ${problems.join('; ')}` };
  return { status: 'pass', evidence: found };
}

export default defineCheck({
  id: 'protocol_commerce_profile',
  label: 'Agentic commerce profile (UCP or ACP)',
  title: 'The store publishes an agentic commerce profile (UCP or ACP)',
  failureTitle: 'Publish a UCP profile (or ACP discovery)',
  why: 'UCP and ACP profiles tell agents how to build a cart and check out on your store through an API, instead of clicking through pages.',
  how: ucpHow(null),
  fix: {
    plain: 'Publish a profile that tells AI assistants how to build a cart and check out on your store directly, instead of clicking through pages.',
    effort: 'a day or more',
    steps: {
      shopify: 'Shopify publishes this profile for you; if the scan does not find it, check that no proxy or CDN in front of the store blocks it.',
      woocommerce: 'This needs a plugin that adds agentic checkout, or a developer.',
      bigcommerce: 'This needs an app that adds agentic checkout, or a developer.',
      custom: 'A developer publishes the profile and the checkout service it points to; the detail is below.',
    },
  },
  run(a) {
    const ucp = judgeUcp(a);
    const acp = judgeAcp(a);
    const best = RANK[acp.status] > RANK[ucp.status] ? acp : ucp;
    const other = best === ucp ? acp : ucp;
    // The fix follows the UCP profile the store has, if any; an ACP-only store gets the generic text.
    const how = ucp.status !== 'fail' ? ucp.how : undefined;
    if (best.status === 'fail') return { status: 'fail', evidence: `${ucp.evidence}; ${acp.evidence}.` };
    return { status: best.status, evidence: `${best.evidence}${other.status !== 'fail' ? `; also ${other.evidence}` : ''}.`, ...(how ? { how } : {}) };
  },
});
