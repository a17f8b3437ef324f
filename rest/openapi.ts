// GET /openapi.json: OpenAPI 3.1 generated from the route table (rest/routes.ts) and each row's tool input/output
// (zod → JSON Schema draft 2020-12, OpenAPI 3.1's own dialect), plus the few surfaces that are not tool routes
// (discovery, tools.json, badge, verify, MCP). Schemas carrying `.meta({id})` become components.schemas entries;
// every error answer references components.schemas.Error (lib/errors.ts). Only the canonical /api/v1 paths are
// listed; the /api alias is described in info.description. Nothing here is written by hand per endpoint.
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { ERROR_STATUS, ErrorBody, type ErrorCode } from '../lib/errors.js';
import { Host } from '../schemas/params.js';
import { ROUTES, type RouteDef } from './routes.js';
import { SERVICE_VERSION } from '../lib/version.js';
import { deprecationNote } from './deprecation.js';
import { MCP_BODY_LIMIT_BYTES } from '../lib/links.js';
import { MCP_PATH } from '../lib/links.js';
import { FUNCTION_DEFS_FORMATS, FUNCTION_DEFS_PATHS } from '../lib/links.js';

type Json = Record<string, unknown>;

/** Errors any route may answer besides its own (see RouteDef.errors). */
export const COMMON_ERRORS: ErrorCode[] = ['NOT_FOUND', 'METHOD_NOT_ALLOWED', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

const REF_PREFIX = '#/components/schemas/';

/** Converts zod schemas and collects every `$defs` entry (the `.meta({id})` schemas) as a component. */
class SchemaBook {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const { $schema: _s, $defs, ...root } = z.toJSONSchema(schema, { io }) as Json & { $defs?: Record<string, Json> };
    const defs = $defs ?? {};
    // An id keeps its name unless an existing component of that name differs (input vs output forms): then "<id>Input".
    const names = new Map(Object.keys(defs).map((id) => [id, id]));
    for (const id of Object.keys(defs)) {
      const existing = this.components[id];
      if (existing && !isDeepStrictEqual(existing, this.rewrite(defs[id], names))) {
        names.set(id, io === 'input' ? `${id}Input` : `${id}Output`);
      }
    }
    for (const [id, def] of Object.entries(defs)) this.components[names.get(id)!] = this.rewrite(def, names) as Json;
    return this.rewrite(root, names) as Json;
  }

  /** The object schema behind a root that may be a component reference. */
  resolve(schema: Json): Json {
    const ref = schema.$ref;
    return typeof ref === 'string' && ref.startsWith(REF_PREFIX) ? (this.components[ref.slice(REF_PREFIX.length)] ?? schema) : schema;
  }

  private rewrite(node: unknown, names: Map<string, string>): unknown {
    if (Array.isArray(node)) return node.map((n) => this.rewrite(n, names));
    if (typeof node !== 'object' || node === null) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        const id = value.slice('#/$defs/'.length);
        out[key] = REF_PREFIX + (names.get(id) ?? id);
      } else out[key] = this.rewrite(value, names);
    }
    return out;
  }
}

const ref = (name: string) => ({ $ref: REF_PREFIX + name });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const RATE_HEADERS = { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimit-Policy') };
const DEPRECATION_HEADERS = { Deprecation: headerRef('Deprecation'), Sunset: headerRef('Sunset'), Link: headerRef('Link') };
const STATUS_HEADERS: Record<number, Json> = {
  401: { 'WWW-Authenticate': headerRef('WWW-Authenticate') },
  405: { Allow: headerRef('Allow') },
  429: { 'Retry-After': headerRef('Retry-After'), ...RATE_HEADERS },
  503: { 'Retry-After': headerRef('Retry-After') },
};

/** One response per status, listing the codes that share it; every body is the Error shape. */
function errorResponses(codes: ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    out[String(status)] = {
      description: `Error: ${byStatus.get(status)!.join(', ')}`,
      ...(STATUS_HEADERS[status] ? { headers: STATUS_HEADERS[status] } : {}),
      content: jsonContent(ref('Error')),
    };
  }
  return out;
}

function security(auth: RouteDef['auth']): Json {
  if (auth === 'pro') return { security: [{ ProKey: [] }] };
  if (auth === 'optional') return { security: [{}, { ProKey: [] }] };
  return {};
}

/** A parameter from one property of the tool's input schema (its description lifted to the parameter). */
function parameter(name: string, where: 'path' | 'query', schema: Json | undefined, required: boolean): Json {
  const { description, ...rest } = schema ?? { type: 'string' };
  // A list in the query is comma-separated (?hosts=a,b), OpenAPI's form style without explode.
  const list = where === 'query' && rest.type === 'array' ? { style: 'form', explode: false } : {};
  return { name, in: where, required: where === 'path' || required, ...(description ? { description } : {}), ...list, schema: rest };
}

function routeOperation(route: RouteDef, book: SchemaBook): Json {
  const input = book.convert(route.tool.input, 'input');
  const object = book.resolve(input);
  const props = (object.properties ?? {}) as Record<string, Json>;
  const required = new Set((object.required ?? []) as string[]);
  const inPath = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

  const parameters: Json[] = inPath.map((name) => parameter(name, 'path', props[name], true));
  if (route.method === 'get') {
    for (const [name, schema] of Object.entries(props)) if (!inPath.includes(name)) parameters.push(parameter(name, 'query', schema, required.has(name)));
  }
  for (const header of route.echoesHeaders ?? []) {
    parameters.push({ name: header, in: 'header', required: false, description: `Echoed back in the ${header} response header.`, schema: { type: 'string' } });
  }

  const okHeaders: Json = { ...RATE_HEADERS, ...(route.deprecated ? DEPRECATION_HEADERS : {}) };
  for (const header of route.echoesHeaders ?? []) okHeaders[header] = { description: `The request's ${header}, echoed.`, schema: { type: 'string' } };
  const ok = route.produces
    ? { [route.produces]: { schema: { type: 'string' } } }
    : jsonContent(book.convert(route.tool.output, 'output'));

  const errors: ErrorCode[] = [
    ...route.errors,
    ...(route.auth === 'none' ? [] : (['UNAUTHORIZED'] as ErrorCode[])),
    ...(route.method === 'post' ? (['PAYLOAD_TOO_LARGE'] as ErrorCode[]) : []), // the JSON body cap
    ...COMMON_ERRORS,
  ];
  return {
    operationId: route.tool.name,
    summary: route.summary,
    description: route.deprecated ? `${deprecationNote(route.deprecated)} ${route.tool.description}` : route.tool.description,
    ...(route.deprecated ? { deprecated: true } : {}),
    tags: ['Readiness API'],
    ...security(route.auth),
    ...(parameters.length ? { parameters } : {}),
    ...(route.method === 'post' ? { requestBody: { required: true, content: jsonContent(input) } } : {}),
    responses: { '200': { description: 'OK', headers: okHeaders, content: ok }, ...errorResponses(errors) },
  };
}

const DISCOVERY_SCHEMA: Json = {
  type: 'object',
  required: ['name', 'version', 'status', 'openapi', 'endpoints', 'versioning'],
  properties: {
    name: { type: 'string' },
    version: { type: 'string' },
    status: { type: 'string' },
    openapi: { type: 'string', format: 'uri' },
    endpoints: {
      type: 'array',
      items: {
        type: 'object',
        required: ['method', 'path', 'url', 'summary', 'auth'],
        properties: {
          method: { type: 'string' },
          path: { type: 'string' },
          url: { type: 'string', format: 'uri' },
          summary: { type: 'string' },
          auth: { type: 'string', enum: ['none', 'optional_pro_bearer_key', 'pro_bearer_key'] },
          tool: { type: 'string' },
          deprecated: {
            type: 'object',
            description: 'Present only on a deprecated endpoint: the day it was deprecated, the day it will be removed (at least six months later) and the path that replaces it.',
            required: ['since', 'sunset', 'successor'],
            properties: { since: { type: 'string', format: 'date' }, sunset: { type: 'string', format: 'date' }, successor: { type: 'string' } },
          },
        },
      },
    },
    versioning: { type: 'object' },
  },
};

const JSON_RPC_ID = { type: ['string', 'integer'] };
const JSON_RPC_SCHEMAS: Record<string, Json> = {
  JsonRpcRequest: {
    type: 'object',
    description: 'One JSON-RPC 2.0 message per POST (no batches), e.g. {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_merchant_readiness","arguments":{"host":"shop.example.com"}}}.',
    required: ['jsonrpc', 'method'],
    properties: { jsonrpc: { const: '2.0' }, id: JSON_RPC_ID, method: { type: 'string' }, params: { type: 'object' } },
  },
  JsonRpcResponse: {
    type: 'object',
    required: ['jsonrpc', 'id'],
    properties: { jsonrpc: { const: '2.0' }, id: JSON_RPC_ID, result: { type: 'object' }, error: ref('JsonRpcErrorObject') },
  },
  JsonRpcError: {
    type: 'object',
    required: ['jsonrpc', 'id', 'error'],
    properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, error: ref('JsonRpcErrorObject') },
  },
  JsonRpcErrorObject: {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
  },
};

const jsonRpcError = (description: string, headers?: Json) => ({ description, ...(headers ? { headers } : {}), content: jsonContent(ref('JsonRpcError')) });

function otherPaths(book: SchemaBook): Record<string, Json> {
  const host = parameter('host', 'path', book.convert(Host, 'input'), true);
  const toolsJson: Json = {
    get: {
      operationId: 'get_function_definitions',
      summary: 'Function-calling tool definitions (OpenAI shape; ?format=anthropic or ?format=gemini for theirs)',
      tags: ['Discovery'],
      parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [...FUNCTION_DEFS_FORMATS], default: FUNCTION_DEFS_FORMATS[0] } }],
      responses: {
        '200': { description: 'OK', headers: RATE_HEADERS, content: jsonContent({ type: 'object', required: ['tools'], properties: { tools: { type: 'array', items: { type: 'object' } } } }) },
        ...errorResponses(['INVALID_PARAMS', 'RATE_LIMITED', 'INTERNAL_ERROR']),
      },
    },
  };
  return {
    '/api/v1': {
      get: {
        operationId: 'get_discovery',
        summary: 'Discovery document: every endpoint, the version and the versioning policy',
        tags: ['Discovery'],
        responses: {
          '200': { description: 'OK', headers: { ...RATE_HEADERS, Link: headerRef('Link') }, content: jsonContent(ref('Discovery')) },
          ...errorResponses(['RATE_LIMITED', 'INTERNAL_ERROR']),
        },
      },
    },
    [FUNCTION_DEFS_PATHS[0]]: toolsJson,
    '/badge/{host}.svg': {
      get: {
        operationId: 'get_badge',
        summary: 'Score badge of a store (SVG, cached 1 hour; a grey "not scanned" badge for unknown stores)',
        tags: ['Badges'],
        parameters: [host],
        responses: {
          '200': { description: 'The badge', headers: { 'Cache-Control': { schema: { type: 'string' } }, ETag: { schema: { type: 'string' } } }, content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          '304': { description: 'Not modified (If-None-Match matched the ETag)' },
          ...errorResponses(['INVALID_PARAMS', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']),
        },
      },
    },
    '/verify/{host}': {
      get: {
        operationId: 'verify_store',
        summary: 'Redirect to the latest public report of a store',
        tags: ['Badges'],
        parameters: [host],
        responses: {
          '302': { description: 'Found: Location is the latest public report', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
          ...errorResponses(['INVALID_PARAMS', 'HOST_NOT_FOUND', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']),
        },
      },
    },
    [MCP_PATH]: {
      post: {
        operationId: 'mcp',
        summary: 'MCP server (Streamable HTTP, stateless, JSON answers): tools read stored scores only',
        description:
          'JSON-RPC 2.0 over HTTP POST with Content-Type: application/json; no authentication. Methods: initialize, tools/list, tools/call. ' +
          'A plain POST without an Accept header works. GET and DELETE answer 405 (no SSE stream, no sessions).',
        tags: ['MCP'],
        requestBody: { required: true, content: jsonContent(ref('JsonRpcRequest')) },
        responses: {
          '200': { description: 'JSON-RPC response (tool failures are results with isError: true)', content: jsonContent(ref('JsonRpcResponse')) },
          '202': { description: 'Accepted: the message was a notification or a response' },
          '400': jsonRpcError('Parse error (-32700), or an invalid request such as a batch or a message without method (-32600)'),
          '403': jsonRpcError('The Origin header names a site that is not allowed'),
          '413': jsonRpcError(`The body exceeds ${MCP_BODY_LIMIT_BYTES / 1024} KiB`),
          '415': jsonRpcError('Content-Type is not application/json'),
          '429': { description: 'Error: RATE_LIMITED', headers: STATUS_HEADERS[429], content: jsonContent(ref('Error')) },
        },
      },
    },
  };
}

export function openApiDocument(baseUrl: string, routes: RouteDef[] = ROUTES): Json {
  const book = new SchemaBook();
  book.convert(ErrorBody, 'output');
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = `/api/v1${route.path}`;
    paths[path] = { ...(paths[path] ?? {}), [route.method]: routeOperation(route, book) };
  }
  const other = otherPaths(book);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Store Readiness API',
      version: SERVICE_VERSION,
      summary: 'Agent-readiness scores of e-commerce stores: scans, stored reports, badges and an MCP server.',
      description:
        'Canonical paths are under /api/v1; every one also answers under the unversioned /api alias. Reads need no key; ' +
        'a Pro API key (Authorization: Bearer <API_KEY>) raises quotas and unlocks bulk reads and the agent brief. ' +
        `Every error is JSON in the Error shape. Limits and auth: ${baseUrl}/auth.md. Agents: ${baseUrl}/llms.txt.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: 'Site summary for agents (llms.txt)', url: `${baseUrl}/llms.txt` },
    tags: [
      { name: 'Readiness API', description: 'Scans and stored reports' },
      { name: 'Discovery', description: 'Machine-readable descriptions of this service' },
      { name: 'Badges', description: 'Embeddable badge and report redirect' },
      { name: 'MCP', description: 'Model Context Protocol endpoint' },
    ],
    paths: { ...paths, ...other },
    components: {
      schemas: { ...sortKeys(book.components), Discovery: DISCOVERY_SCHEMA, ...JSON_RPC_SCHEMAS },
      headers: {
        RateLimit: { description: 'IETF RateLimit header (draft-8): remaining quota and seconds to reset per policy.', schema: { type: 'string' } },
        'RateLimit-Policy': { description: 'IETF RateLimit-Policy header (draft-8): quota and window per policy.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
        'WWW-Authenticate': { description: 'Bearer challenge; error="invalid_token" for a bad or revoked key.', schema: { type: 'string' } },
        Allow: { description: 'The methods the path accepts.', schema: { type: 'string' } },
        Deprecation: { description: 'RFC 9745: when the endpoint was deprecated, as @<Unix seconds>.', schema: { type: 'string' } },
        Sunset: { description: 'RFC 8594: the HTTP-date from which the endpoint may be removed.', schema: { type: 'string' } },
        Link: {
          description:
            'RFC 8288 links: on the discovery document rel="api-catalog", "service-desc" and "describedby"; on a deprecated endpoint rel="successor-version" (the replacement) and rel="deprecation" (the changelog).',
          schema: { type: 'string' },
        },
      },
      securitySchemes: {
        ProKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Pro API key, issued by the operator of this service (see auth.md), sent as Authorization: Bearer <API_KEY>.',
        },
      },
    },
  };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
