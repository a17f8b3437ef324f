// POST /mcp: the MCP server (docs/architecture.md "An MCP call"), stateless Streamable HTTP with JSON answers, for
// MCP 2026-07-28 and for 2025-06-18 / 2025-11-25 clients from one server definition (buildServer), served by the
// official SDK's per-request handler: a server of its own for every request, so overlapping requests never meet,
// whatever ids they send. This file is the ONE adapter from declarations to the SDK: every tool with expose ∋ 'mcp'
// goes through registerTools() and wrap(), every resource and prompt through registerResources() and
// registerPrompts(). In front of the SDK sit the guards of docs/security.md O5, on both revisions: Origin check,
// POST only, 64 KiB body, nesting cap, no batches, JSON-RPC errors instead of HTML.
import { AsyncLocalStorage } from 'node:async_hooks';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  completable,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpHandlerRequestOptions,
  type StandardSchemaWithJSON,
  type CacheHint,
  type CallToolResult,
  type CompleteResourceTemplateCallback,
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { z } from 'zod';
import type { Config } from '../lib/config.js';
import { AppError, GENERIC_INTERNAL_MESSAGE, toErrorBody } from '../lib/errors.js';
import { answerableError, type ErrorWitness } from '../lib/http-errors.js';
import type { Repository } from '../db/repo.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import type { AppState } from '../tools/app-state.js';
import { MCP_CAPABILITIES, MCP_INSTRUCTIONS, MCP_SERVER_INFO, mcpTools } from '../tools/mcp-tools.js';
import { inlineTopLevel, type AnyTool, type ToolContext } from '../tools/tool.js';
import { requestContext } from '../http/request-context.js';
import { invoke } from '../tools/invoke.js';
import { MCP_BODY_LIMIT_BYTES, MCP_PATH } from '../lib/links.js';
import { RESOURCES, RESOURCE_TEMPLATES } from '../tools/resources/index.js';
import type { AnyResourceTemplate, Completion, PublicDocuments, ReadContext, ResourceDef } from '../tools/resources/resource.js';
import { PROMPTS } from '../tools/prompts/index.js';
import type { AnyPrompt } from '../tools/prompts/prompt.js';
import { complete } from '../tools/complete.js';
import { jsonLegacyLeg } from './legacy-leg.js';
import { serverPool } from './server-pool.js';
import { carriesStoreText, quotedStoreText, UNTRUSTED_NOTE } from './untrusted-text.js';
import { invalidParams } from './invalid-params.js';

/** Deepest JSON nesting accepted; real MCP messages stay under 10. Checked on the raw bytes before JSON.parse. */
export const MCP_MAX_JSON_DEPTH = 64;

export interface McpDeps {
  config: Config;
  db: Repository;
  log: Logger;
  /** The public documents the resources serve, rendered by the layers above (server/app.ts hands them in). */
  documents: PublicDocuments;
  scanOverrides?: ToolContext['scanOverrides'];
  /** The app's state, carried by every tool context. */
  state: AppState;
  /** Counts the store failures met by resource reads and prompts (tools count through their context). */
  metrics?: ServiceMetrics;
}

type JsonRpcId = string | number | null;

function sendJsonRpcError(res: Response, status: number, code: number, message: string, id: JsonRpcId = null, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).type('application/json').send(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
}

const normaliseOrigin = (value: string): string => {
  try {
    return new URL(value).origin;
  } catch {
    return value.trim().toLowerCase();
  }
};

/** Browsers send Origin; a foreign one is refused (DNS-rebinding and cross-site abuse). No Origin = not a browser. */
function originGuard(config: Config): { check: RequestHandler; allowed(origin: string | undefined): boolean } {
  const list = new Set([normaliseOrigin(config.BASE_URL), ...config.MCP_ALLOWED_ORIGINS.map(normaliseOrigin)]);
  const allowed = (origin: string | undefined) => origin === undefined || list.has('*') || list.has(normaliseOrigin(origin));
  const check: RequestHandler = (req, res, next) => {
    const origin = req.headers.origin;
    if (!allowed(origin)) return sendJsonRpcError(res, 403, -32000, `Forbidden: Origin ${String(origin).slice(0, 100)} is not allowed.`);
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.append('Vary', 'Origin');
    }
    next();
  };
  return { check, allowed };
}

const requireJson: RequestHandler = (req, res, next) => {
  const type = req.headers['content-type'] ?? '';
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
  if (!req.is('application/json') || (charset !== undefined && charset.toLowerCase() !== 'utf-8')) {
    return sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: send the JSON-RPC message as Content-Type: application/json (UTF-8).');
  }
  next();
};

/** Throws when brackets nest deeper than MCP_MAX_JSON_DEPTH (strings skipped). UTF-8 only, which requireJson ensures. */
function depthGuard(_req: unknown, _res: unknown, buf: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MCP_MAX_JSON_DEPTH) {
        throw Object.assign(new Error(`JSON nested deeper than ${MCP_MAX_JSON_DEPTH} levels`), { type: 'json.too.deep', status: 400 });
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** express.json with JSON-RPC answers for every body failure (never the default HTML page). */
function parseBody(): RequestHandler {
  const json = express.json({ limit: MCP_BODY_LIMIT_BYTES, strict: false, type: 'application/json', verify: depthGuard });
  return (req, res, next) => {
    json(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        return sendJsonRpcError(res, 413, -32000, `Payload Too Large: a JSON-RPC message may be at most ${MCP_BODY_LIMIT_BYTES / 1024} KiB.`);
      }
      if (type === 'json.too.deep') return sendJsonRpcError(res, 400, -32700, `Parse error: JSON nested deeper than ${MCP_MAX_JSON_DEPTH} levels.`);
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
        return sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: the body must be UTF-8 JSON.');
      }
      if (type === 'request.aborted') return void res.destroy();
      sendJsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON.');
    });
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isValidId = (id: unknown): id is string | number => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/** A 2026-07-28 message names its revision in `params._meta`; a 2025 one never does. */
const carriesModernMeta = (body: Record<string, unknown>): boolean =>
  isObject(body.params) && isObject(body.params._meta) && 'io.modelcontextprotocol/protocolVersion' in body.params._meta;

/** One JSON-RPC message per POST: a request, a notification or a response. Batches were removed from MCP (2025-06-18). */
const singleMessage: RequestHandler = (req, res, next) => {
  const body: unknown = req.body;
  if (Array.isArray(body)) {
    return sendJsonRpcError(res, 400, -32600, 'Invalid Request: batches are not supported; send one JSON-RPC message per POST.');
  }
  const id = isObject(body) && isValidId(body.id) ? body.id : null;
  const ok =
    isObject(body) &&
    body.jsonrpc === '2.0' &&
    (typeof body.method === 'string'
      ? body.id === undefined || isValidId(body.id) // request or notification
      : isValidId(body.id) && ('result' in body || 'error' in body)); // response
  if (!ok) return sendJsonRpcError(res, 400, -32600, 'Invalid Request: expected one JSON-RPC 2.0 message with a method (and a string or number id).', id);
  // The SDK answers params that do not fit the method with -32603 and its validator's dump; it is the client's
  // mistake (-32602), said in a sentence, with the status JSON-RPC errors of a well-formed message carry.
  if (body.method === 'initialize' && !carriesModernMeta(body) && !isInitializeRequest(body)) {
    return sendJsonRpcError(res, 200, -32602, 'Invalid params: initialize needs params.protocolVersion (a string), params.capabilities (an object) and params.clientInfo (its name and version).', id);
  }
  const request = body as Record<string, unknown>;
  const invalid = typeof request.method === 'string' && request.id !== undefined ? invalidParams(request.method, request.params, carriesModernMeta(request)) : null;
  if (invalid) return sendJsonRpcError(res, 200, -32602, invalid, id);
  next();
};

const methodNotAllowed: RequestHandler = (_req, res) =>
  sendJsonRpcError(res, 405, -32000, 'Method Not Allowed: this stateless MCP endpoint accepts POST only (no SSE stream, no sessions).', null, {
    Allow: 'POST',
  });

/** A short line for people, then the JSON for models; structuredContent carries the same data. */
function renderText(tool: AnyTool, data: unknown): string {
  const d = (isObject(data) ? data : {}) as Record<string, unknown>;
  let head = tool.title;
  if (typeof d.host === 'string' && typeof d.score === 'number') {
    head = `${d.host}: ${d.score}/100, grade ${String(d.grade)}${d.capped ? ' (capped: agents are blocked)' : ''}`;
    if (typeof d.report_url === 'string') head += `. Report: ${d.report_url}`;
  } else if (Array.isArray(d.stores)) {
    const stores = d.stores as { rank: number; host: string; score: number; grade: string }[];
    head = stores.length
      ? `${stores.length} agent-ready stores: ${stores.map((s) => `#${s.rank} ${s.host} ${s.score}/100 (${s.grade})`).join('; ')}`
      : 'No verified agent-ready store matches.';
  }
  if (!carriesStoreText(data)) return `${head}\n\n${JSON.stringify(data)}`;
  return `${head}\n\n${UNTRUSTED_NOTE}\n\n${JSON.stringify(quotedStoreText(data))}`;
}

const errorResult = (err: AppError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(toErrorBody(err)) }],
});

/** The tool adapter: plain data → content + structuredContent; an error → isError with the body lib/http-errors.ts answerableError shows. */
function wrap(tool: AnyTool, contextFor: (tool: AnyTool) => ToolContext) {
  return async (args: unknown): Promise<CallToolResult> => {
    let ctx: ToolContext | undefined;
    try {
      const { value } = await invoke(tool, args, { context: () => (ctx = contextFor(tool)) });
      // Parse (not just check) so structuredContent holds exactly the declared fields: the output schema the
      // client validates against says additionalProperties: false.
      const out = tool.output.safeParse(value);
      if (!out.success) throw new Error(`${tool.name} returned data that does not match its output schema: ${out.error.message}`);
      return { content: [{ type: 'text', text: renderText(tool, out.data) }], structuredContent: out.data };
    } catch (err) {
      // SDK 1.x would copy error.message into the result: only what the rule shows leaves the process.
      return errorResult(answerableError(err, { log: ctx?.log, metrics: ctx?.metrics }));
    }
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * A tool schema whose JSON Schema is converted once per process. The SDK converts a zod schema afresh for every new
 * server, and it builds one per request: converting the report's output schema on every tools/call cost more than
 * the rest of the call (bench: MCP tools/call). Validation stays zod's own.
 */
function convertedOnce(schema: z.ZodType): StandardSchemaWithJSON {
  const std = schema['~standard'];
  const converted = new Map<string, Record<string, unknown>>();
  const once = (io: 'input' | 'output') => (options: { target: string }) => {
    const key = `${io} ${options.target}`;
    let json = converted.get(key);
    // Frozen: every server gets the same object, so none may change it (a test would throw if the SDK tried).
    if (!json) converted.set(key, (json = deepFreeze(std.jsonSchema[io](options as Parameters<typeof std.jsonSchema.input>[0]))));
    return json;
  };
  return { '~standard': { version: 1, vendor: std.vendor, validate: (value) => std.validate(value), jsonSchema: { input: once('input'), output: once('output') } } };
}

const toolSchemas = new WeakMap<AnyTool, { input: StandardSchemaWithJSON; output: StandardSchemaWithJSON }>();
function schemasOf(tool: AnyTool): { input: StandardSchemaWithJSON; output: StandardSchemaWithJSON } {
  let schemas = toolSchemas.get(tool);
  if (!schemas) toolSchemas.set(tool, (schemas = { input: convertedOnce(inlineTopLevel(tool.input)), output: convertedOnce(inlineTopLevel(tool.output)) }));
  return schemas;
}

/** Registers every MCP tool on one server. The only place tool declarations meet the SDK. */
export function registerTools(server: McpServer, tools: AnyTool[], contextFor: (tool: AnyTool) => ToolContext): void {
  for (const tool of tools) {
    const schemas = schemasOf(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: { ...tool.annotations },
      },
      wrap(tool, contextFor),
    );
  }
}

/** An error the SDK sends as it is: a JSON-RPC code, our message, and the tools' error body (next_action) as data. */
const rpcError = (code: number, message: string, data?: unknown): Error => new ProtocolError(code, message, data);

/**
 * MCP's 2025 code for an unknown resource (a store with no public report). The SDK sends it as -32602 on every
 * revision, as 2026-07-28 requires (clients are told to accept either).
 */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Runs a resource read or prompt render, the JSON-RPC adapter of lib/http-errors.ts answerableError: an error
 * under 500 → a JSON-RPC error carrying the tools' error body; anything else → the generic internal error.
 */
async function answering<T>(witness: ErrorWitness, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const shown = answerableError(err, witness);
    if (shown.status < 500) {
      throw rpcError(shown.status === 404 ? RESOURCE_NOT_FOUND : ProtocolErrorCode.InvalidParams, shown.message, toErrorBody(shown));
    }
    throw rpcError(ProtocolErrorCode.InternalError, GENERIC_INTERNAL_MESSAGE);
  }
}

/** Zod's message for bad arguments, the same wording tools give. */
const invalid = (error: z.ZodError): Error =>
  rpcError(ProtocolErrorCode.InvalidParams, `Invalid arguments: ${error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; ')}`);

const completer = (kind: Completion, db: Repository) => async (value: unknown) => complete(kind, db, typeof value === 'string' ? value : '');

/** Template variables as they appear in a URI: percent-decoded, one value each. */
function decodeVariables(vars: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) {
    const one = Array.isArray(value) ? value.join(',') : value;
    try {
      out[name] = decodeURIComponent(one);
    } catch {
      out[name] = one;
    }
  }
  return out;
}

/** Registers every resource and resource template. The only place resource declarations meet the SDK. */
export function registerResources(server: McpServer, resources: ResourceDef[], templates: AnyResourceTemplate[], ctx: ReadContext, witness: ErrorWitness): void {
  for (const r of resources) {
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: r.mimeType, text: await answering(witness, () => r.read(ctx)) }],
    }));
  }
  for (const t of templates) {
    const completions: Record<string, CompleteResourceTemplateCallback> = {};
    for (const [name, kind] of Object.entries(t.complete as Record<string, Completion>)) completions[name] = completer(kind, ctx.db);
    const template = new ResourceTemplate(t.uriTemplate, { list: undefined, complete: completions });
    server.registerResource(t.name, template, { title: t.title, description: t.description, mimeType: t.mimeType }, async (uri, vars) => {
      const parsed = t.variables.safeParse(decodeVariables(vars));
      if (!parsed.success) throw invalid(parsed.error);
      const text = await answering(witness, () => t.read(parsed.data, ctx));
      return { contents: [{ uri: uri.href, mimeType: t.mimeType, text: t.storeText ? `${UNTRUSTED_NOTE}\n\n${text}` : text }] };
    });
  }
}

/** Registers every prompt: zod arguments (with completion where declared), the rendered text as one user message. */
export function registerPrompts(server: McpServer, prompts: AnyPrompt[], ctx: ReadContext, witness: ErrorWitness): void {
  for (const p of prompts) {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, field] of Object.entries(p.args.shape as Record<string, z.ZodType>)) {
      const kind = (p.complete as Record<string, Completion | undefined>)[name];
      // completable marks the schema object itself: mark a copy, never a schema that tools share.
      shape[name] = kind ? completable(field.describe(field.description ?? ''), completer(kind, ctx.db)) : field;
    }
    server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: shape }, async (args: unknown) => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: await answering(witness, () => p.render(args, ctx)) } }],
    }));
  }
}

/**
 * Cache hints for the 2026-07-28 path. The lists and server/discover only change with a new release: an hour, any
 * cache. Reads change when a store is re-scanned or the index moves: a minute, so a client re-reading a report
 * after a scan waits at most that long, and the answer is the same for every caller (public).
 */
/** Open subscriptions/listen streams at once: each holds a connection and nothing is ever sent on it. */
export const MCP_MAX_SUBSCRIPTIONS = 100;
export const MCP_LIST_TTL_MS = 3_600_000;
export const MCP_READ_TTL_MS = 60_000;
const LIST_HINT: CacheHint = { ttlMs: MCP_LIST_TTL_MS, cacheScope: 'public' };
const CACHE_HINTS = {
  'server/discover': LIST_HINT,
  'tools/list': LIST_HINT,
  'prompts/list': LIST_HINT,
  'resources/list': LIST_HINT,
  'resources/templates/list': LIST_HINT,
  'resources/read': { ttlMs: MCP_READ_TTL_MS, cacheScope: 'public' },
} as const;

/**
 * The one server definition both revisions are served from: every tool, resource, prompt and completion. The SDK's
 * per-request handler takes one server per request; idle ones are reused (mcp/server-pool.ts).
 */
function buildServer(deps: McpDeps, contextFor: (tool: AnyTool) => ToolContext, readContext: ReadContext): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: MCP_INSTRUCTIONS, capabilities: MCP_CAPABILITIES, maxToolInputElements: 1000, cacheHints: CACHE_HINTS });
  registerTools(server, mcpTools(), contextFor);
  const witness = { log: deps.log, metrics: deps.metrics };
  registerResources(server, RESOURCES, RESOURCE_TEMPLATES, readContext, witness);
  registerPrompts(server, PROMPTS, readContext, witness);
  return server;
}

export function mcpRouter(deps: McpDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const origins = originGuard(deps.config);
  const readContext: ReadContext = { db: deps.db, baseUrl: deps.config.BASE_URL, documents: deps.documents };

  // The tool context of the HTTP request being served, found by the tool handlers the SDK calls for it.
  const requestScope = new AsyncLocalStorage<(tool: AnyTool) => ToolContext>();
  const contextOf = (tool: AnyTool): ToolContext => {
    const contextFor = requestScope.getStore();
    if (!contextFor) throw new Error(`no request context for MCP tool ${tool.name}`);
    return contextFor(tool);
  };
  const build = () => buildServer(deps, contextOf, readContext);
  const modernServer = serverPool(build);

  // 2026-07-28 requests (server/discover, the _meta envelope, the Mcp-Method header) go to the SDK's handler, the
  // rest to the 2025 leg (mcp/legacy-leg.ts), routed by the SDK's own classification. A result is one JSON body
  // ('auto' streams only when a handler sends something before its result, which none does).
  const modern = createMcpHandler(modernServer, {
    legacy: 'reject',
    responseMode: 'auto',
    maxSubscriptions: MCP_MAX_SUBSCRIPTIONS,
    maxRequestBodySize: MCP_BODY_LIMIT_BYTES,
    onerror: (err) => deps.log.debug({ err: err.message }, 'MCP request refused'),
  });
  const legacy = jsonLegacyLeg(serverPool(build));
  const node = toNodeHandler(
    {
      fetch: async (request: globalThis.Request, options?: McpHandlerRequestOptions) =>
        (await isLegacyRequest(request, options?.parsedBody, { maxRequestBodySize: MCP_BODY_LIMIT_BYTES })) ? legacy(request, options) : modern.fetch(request, options),
    },
    { onerror: (err) => deps.log.error({ err }, 'MCP request failed') },
  );

  // Only a tool that reaches out (open world) has work worth cancelling when the client goes away.
  // The scope lets go of the request once the SDK has answered it. Every promise made while the SDK serves a
  // request carries this scope, and the SDK's node adapter gives each request an AbortSignal that undici's Request
  // keeps in a FinalizationRegistry until a later collection's cleanup runs: under sustained load, a scope holding
  // req and res kept thousands of answered requests alive (RSS 345 MB → 1 GB in a minute of tools/call; bench: MCP).
  const scopeOf = (req: Request, res: Response) => {
    let open: { req: Request; res: Response } | undefined = { req, res };
    const contextFor = (tool: AnyTool): ToolContext => {
      if (!open) throw new Error(`MCP tool ${tool.name} started after its request ended`);
      return requestContext(open.req, open.res, deps, tool.annotations.openWorldHint, tool.name);
    };
    return { contextFor, end: () => void (open = undefined) };
  };

  const handle = async (req: Request, res: Response, _next: NextFunction) => {
    const scope = scopeOf(req, res);
    try {
      await requestScope.run(scope.contextFor, () => node(req, res, req.body));
    } catch (err) {
      (req.log ?? deps.log).error({ err }, 'MCP request failed');
      sendJsonRpcError(res, 500, -32603, 'Internal error. It has been logged; please retry later.');
    } finally {
      scope.end();
    }
  };

  router.options(MCP_PATH, (req, res) => {
    const origin = req.headers.origin;
    if (!origins.allowed(origin)) return sendJsonRpcError(res, 403, -32000, 'Forbidden: this Origin is not allowed.');
    res.setHeader('Allow', 'POST');
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Methods', 'POST');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id');
      res.setHeader('Access-Control-Max-Age', '600');
      res.append('Vary', 'Origin');
    }
    res.status(204).end();
  });
  router.post(MCP_PATH, origins.check, requireJson, parseBody(), singleMessage, handle);
  router.all(MCP_PATH, methodNotAllowed);
  return router;
}
