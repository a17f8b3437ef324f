// The protocol documents a store publishes, read tolerantly: /.well-known/ucp (every released UCP version: the
// 2026-01-11 transport-object shape and the bindings-array shape of 2026-01-23 on; signing keys in `signing_keys[]`
// up to 2026-04-08, in `keys[]` from 2026-08-25), /.well-known/acp.json (ACP 2025-09-29 … 2026-04-17) and an MCP
// server card. Which versions are accepted, and why, is in docs/checks.md §11.
import type { Artifacts } from '../artifacts.js';
import { jsonOf } from './resources.js';
import { isAbsoluteHttpUrl } from './urls.js';

export const DATE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** Released UCP versions, oldest first (docs/checks.md §11). */
export const UCP_VERSIONS = ['2026-01-11', '2026-01-23', '2026-04-08', '2026-08-25'] as const;
export const UCP_NEWEST = UCP_VERSIONS[UCP_VERSIONS.length - 1];
/** From this UCP version on, signing keys live in the top-level `keys[]` JWK Set and `signing_keys[]` is gone. */
export const UCP_KEYS_SINCE = '2026-08-25';

/** Released ACP versions, oldest first; the discovery document's `transports` and the `carts` service came with the last. */
export const ACP_VERSIONS = ['2025-09-29', '2025-12-12', '2026-01-16', '2026-01-30', '2026-04-17'] as const;
export const ACP_NEWEST = ACP_VERSIONS[ACP_VERSIONS.length - 1];
export const ACP_TRANSPORTS_SINCE = '2026-04-17';

/** Where a date version stands against the released ones: a release, newer than the newest known, or other. */
export function versionStanding(version: string | null, released: readonly string[]): 'released' | 'newer' | 'unreleased' | 'invalid' {
  if (!version || !DATE_VERSION.test(version)) return 'invalid';
  if (released.includes(version)) return 'released';
  return version > released[released.length - 1] ? 'newer' : 'unreleased';
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface UcpBinding {
  transport: string;
  endpoint: string;
}

export interface UcpProfile {
  json: Record<string, unknown>; // the `ucp` object
  wrapped: boolean; // false = legacy flat shape (fields at the top level)
  version: string | null;
  shape: 'bindings array' | 'transport object' | 'none'; // services["dev.ucp.shopping"]: 2026-01-23 on, or 2026-01-11
  signingKeys: number; // JWKs in `signing_keys[]` (top level, or inside `ucp` as some profiles put them)
  keys: number; // JWKs in the top-level `keys[]` JWK Set
  bindings: UcpBinding[]; // dev.ucp.shopping bindings with an absolute endpoint
  templatedEndpoints: string[]; // endpoints that are not absolute URLs ("{{ENDPOINT}}")
  capabilities: string[];
  paymentHandlers: string[];
}

function capabilityNames(caps: unknown): string[] {
  if (Array.isArray(caps)) {
    return caps.flatMap((c) => (isObject(c) && typeof c.name === 'string' ? [c.name] : typeof c === 'string' ? [c] : []));
  }
  if (isObject(caps)) return Object.keys(caps);
  return [];
}

function paymentHandlerNames(ucp: Record<string, unknown>, doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (isObject(ucp.payment_handlers)) out.push(...Object.keys(ucp.payment_handlers));
  const payment = isObject(ucp.payment) ? ucp.payment : isObject(doc.payment) ? doc.payment : null;
  if (payment && Array.isArray(payment.handlers)) {
    for (const h of payment.handlers) {
      if (isObject(h)) {
        const n = typeof h.name === 'string' ? h.name : typeof h.id === 'string' ? h.id : null;
        if (n) out.push(n);
      }
    }
  }
  return out;
}

/** Reads /.well-known/ucp, or null when there is no UCP-like JSON document at all. */
export function readUcp(a: Artifacts): UcpProfile | null {
  const doc = jsonOf(a.ucp, a.ucpJson);
  if (!isObject(doc)) return null;
  const wrapped = isObject(doc.ucp);
  const ucp = wrapped ? (doc.ucp as Record<string, unknown>) : doc;
  if (!wrapped && !('services' in doc) && !('capabilities' in doc)) return null;
  const version = typeof ucp.version === 'string' ? ucp.version : null;
  const services = isObject(ucp.services) ? ucp.services : {};
  const shopping = services['dev.ucp.shopping'];
  const bindings: UcpBinding[] = [];
  const templated: string[] = [];
  let shape: UcpProfile['shape'] = 'none';
  const take = (transport: string, endpoint: unknown) => {
    if (isAbsoluteHttpUrl(endpoint) && !endpoint.includes('{{')) bindings.push({ transport, endpoint });
    else if (typeof endpoint === 'string') templated.push(endpoint);
  };
  if (Array.isArray(shopping)) {
    shape = 'bindings array';
    for (const b of shopping) if (isObject(b)) take(typeof b.transport === 'string' ? b.transport : 'unknown', b.endpoint);
  } else if (isObject(shopping)) {
    shape = 'transport object';
    for (const [transport, b] of Object.entries(shopping)) if (isObject(b)) take(transport, b.endpoint);
  }
  return {
    json: ucp,
    wrapped,
    version,
    shape,
    bindings,
    templatedEndpoints: templated,
    capabilities: capabilityNames(ucp.capabilities),
    paymentHandlers: paymentHandlerNames(ucp, doc),
    signingKeys: jwkCount(doc.signing_keys) || jwkCount(ucp.signing_keys),
    keys: jwkCount(doc.keys),
  };
}

function jwkCount(v: unknown): number {
  return Array.isArray(v) ? v.filter((k) => isObject(k) && typeof k.kty === 'string').length : 0;
}

export interface AcpDiscovery {
  version: string | null;
  supportedVersions: string[];
  apiBaseUrl: string | null;
  transports: string[];
  hasTransports: boolean; // the `transports` member is present (required from 2026-04-17)
  services: string[];
}

/** Reads /.well-known/acp.json, or null when it is not an ACP discovery document (protocol.name "acp"). */
export function readAcp(a: Artifacts): AcpDiscovery | null {
  const doc = jsonOf(a.acp, a.acpJson);
  if (!isObject(doc) || !isObject(doc.protocol) || doc.protocol.name !== 'acp') return null;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    version: typeof doc.protocol.version === 'string' ? doc.protocol.version : null,
    supportedVersions: strings(doc.protocol.supported_versions).slice(0, 20),
    apiBaseUrl: typeof doc.api_base_url === 'string' ? doc.api_base_url : null,
    transports: strings(doc.transports),
    hasTransports: 'transports' in doc,
    services: isObject(doc.capabilities) ? strings(doc.capabilities.services) : [],
  };
}

export interface ServerCard {
  name: string | null;
  endpoints: string[];
}

/** The well-known MCP server card (R6/R6b) of a scan. */
export function readServerCard(a: Artifacts): ServerCard | null {
  return readServerCardDoc(jsonOf(a.serverCard, a.serverCardJson));
}

/** An MCP server card (SEP-2127 `remotes[]`, SEP-1649 `transport`, or an `endpoints` list), wherever it was found. */
export function readServerCardDoc(doc: unknown): ServerCard | null {
  if (!isObject(doc)) return null;
  const info = isObject(doc.serverInfo) ? doc.serverInfo : null;
  const name =
    typeof doc.name === 'string' && doc.name.trim() !== ''
      ? doc.name
      : info && typeof info.name === 'string' && info.name.trim() !== ''
        ? info.name
        : null;
  const endpoints: string[] = [];
  const add = (v: unknown) => {
    if (isAbsoluteHttpUrl(v)) endpoints.push(v);
  };
  if (Array.isArray(doc.remotes)) for (const r of doc.remotes) if (isObject(r)) add(r.url);
  if (isObject(doc.transport)) {
    add(doc.transport.endpoint);
    add(doc.transport.url);
  }
  if (Array.isArray(doc.endpoints)) {
    for (const e of doc.endpoints) {
      add(e);
      if (isObject(e)) add(e.url ?? e.endpoint);
    }
  } else if (isObject(doc.endpoints)) {
    for (const e of Object.values(doc.endpoints)) {
      add(e);
      if (isObject(e)) add(e.url ?? e.endpoint);
    }
  } else add(doc.endpoints);
  return { name, endpoints };
}

/** MCP tool names that serve shopping. */
export const COMMERCE_TOOL = /search|catalog|product|cart|checkout|order|polic/i;
