// The protocol documents a store publishes, read tolerantly: /.well-known/ucp (the UCP 2026-01 object shape and the
// 2026-04 array shape), /.well-known/acp.json and an MCP server card (docs/checks.md §10).
import type { Artifacts } from './artifacts.js';
import { jsonOf } from './checks/resources.js';
import { isAbsoluteHttpUrl } from './checks/urls.js';

export const DATE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

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
  shape: '2026-04 array' | '2026-01 object' | 'none';
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
    shape = '2026-04 array';
    for (const b of shopping) if (isObject(b)) take(typeof b.transport === 'string' ? b.transport : 'unknown', b.endpoint);
  } else if (isObject(shopping)) {
    shape = '2026-01 object';
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
  };
}

export interface AcpDiscovery {
  version: string | null;
  apiBaseUrl: string | null;
  transports: string[];
  services: string[];
}

/** Reads /.well-known/acp.json, or null when it is not an ACP discovery document (protocol.name "acp"). */
export function readAcp(a: Artifacts): AcpDiscovery | null {
  const doc = jsonOf(a.acp, a.acpJson);
  if (!isObject(doc) || !isObject(doc.protocol) || doc.protocol.name !== 'acp') return null;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    version: typeof doc.protocol.version === 'string' ? doc.protocol.version : null,
    apiBaseUrl: typeof doc.api_base_url === 'string' ? doc.api_base_url : null,
    transports: strings(doc.transports),
    services: isObject(doc.capabilities) ? strings(doc.capabilities.services) : [],
  };
}

export interface ServerCard {
  name: string | null;
  endpoints: string[];
}

/** An MCP server card (SEP-2127 `remotes[]`, SEP-1649 `transport`, or an `endpoints` list). */
export function readServerCard(a: Artifacts): ServerCard | null {
  const doc = jsonOf(a.serverCard, a.serverCardJson);
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
