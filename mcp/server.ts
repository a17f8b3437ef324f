// POST /mcp: the MCP server (docs/architecture.md "An MCP call"), stateless Streamable HTTP with JSON answers. Per
// request a fresh McpServer + transport (a shared server breaks under overlapping requests); the JSON-schema validator
// is shared (≈1.7× req/s). This file is the ONE adapter from tool declarations to the SDK: every tool with
// expose ∋ 'mcp' goes through registerTools() and wrap(). In front of the SDK sit the guards of docs/security.md
// O5: Origin check, POST only, 64 KiB body, nesting cap, no batches, JSON-RPC errors instead of HTML.
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListToolsRequestSchema, type CallToolResult, type JSONRPCMessage, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../lib/config.js';
import { AppError, GENERIC_INTERNAL_MESSAGE, toErrorBody } from '../lib/errors.js';
import { toAppError } from '../lib/http-errors.js';
import type { StoreRepo } from '../store/repo.js';
import { TOOLS } from '../tools/index.js';
import { inlineTopLevel, type AnyTool, type ToolContext } from '../tools/tool.js';
import { toolContext } from '../rest/router.js';
import { SERVICE_VERSION } from '../lib/version.js';
import { MCP_BODY_LIMIT_BYTES, MCP_PATH } from '../lib/links.js';

/** Deepest JSON nesting accepted; real MCP messages stay under 10. Checked on the raw bytes before JSON.parse. */
export const MCP_MAX_JSON_DEPTH = 64;

export const MCP_SERVER_INFO = { name: 'store-readiness', title: 'Store Readiness', version: SERVICE_VERSION };
export const MCP_INSTRUCTIONS =
  'Agent-readiness scores of e-commerce stores: can an AI shopping agent find, understand and buy there? ' +
  'These tools read stored scan results only and never contact or scan a store. A store that was never scanned ' +
  'returns an error whose next_action names the scan endpoint, which is meant for merchants auditing their own store.';

/** The tools MCP lists, in tools/index.ts order. */
export const mcpTools = (): AnyTool[] => TOOLS.filter((t) => t.expose.includes('mcp'));

export interface McpDeps {
  config: Config;
  store: StoreRepo;
  log: Logger;
  scanOverrides?: ToolContext['scanOverrides'];
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

// Why: the service promises that a plain JSON-RPC POST with Content-Type application/json works, but SDK 1.x answers
// 406 unless Accept lists both application/json and text/event-stream, even with enableJsonResponse (issue
// typescript-sdk#1944, fix proposed in typescript-sdk PR #1952). Our transport only ever answers JSON, so adding
// the media types on the client's behalf changes nothing it receives. Remove once the SDK ships the fix.
const normaliseAccept: RequestHandler = (req, _res, next) => {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    const value = 'application/json, text/event-stream';
    req.headers.accept = value;
    // The transport builds its Request from rawHeaders as well: keep both views identical.
    const raw: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i].toLowerCase() !== 'accept') raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
    }
    raw.push('Accept', value);
    req.rawHeaders.length = 0;
    req.rawHeaders.push(...raw);
  }
  next();
};

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
  return `${head}\n\n${JSON.stringify(data)}`;
}

const errorResult = (err: AppError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(toErrorBody(err)) }],
});

/** The handler adapter: plain data → content + structuredContent; AppError → isError with next_action; else generic. */
function wrap(tool: AnyTool, contextFor: (tool: AnyTool) => ToolContext) {
  return async (args: unknown): Promise<CallToolResult> => {
    const ctx = contextFor(tool);
    try {
      const data = await tool.handler(args, ctx);
      // Parse (not just check) so structuredContent holds exactly the declared fields: the output schema the
      // client validates against says additionalProperties: false.
      const out = tool.output.safeParse(data);
      if (!out.success) throw new Error(`${tool.name} returned data that does not match its output schema: ${out.error.message}`);
      return { content: [{ type: 'text', text: renderText(tool, out.data) }], structuredContent: out.data };
    } catch (err) {
      const known = toAppError(err);
      if (known && known.status < 500) return errorResult(known);
      // SDK 1.x would copy error.message into the result: only a generic message leaves the process.
      ctx.log.error({ err, tool: tool.name }, 'MCP tool failed');
      return errorResult(known ?? new AppError('INTERNAL_ERROR', GENERIC_INTERNAL_MESSAGE));
    }
  };
}

/** Registers every MCP tool on one server. The only place tool declarations meet the SDK. */
export function registerTools(server: McpServer, tools: AnyTool[], contextFor: (tool: AnyTool) => ToolContext): void {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: inlineTopLevel(tool.input),
        outputSchema: inlineTopLevel(tool.output),
        annotations: { ...tool.annotations },
      },
      wrap(tool, contextFor),
    );
  }
}

/**
 * The tools/list answer of a server with these tools, as the SDK builds it. The SDK converts every tool's zod
 * schemas to JSON Schema on each tools/list; the tools never change while the process runs, so one conversion,
 * asked for through the SDK's Transport interface, serves every later tools/list.
 */
async function listToolsOnce(server: McpServer): Promise<ListToolsResult> {
  let answer!: (message: JSONRPCMessage) => void;
  const answered = new Promise<JSONRPCMessage>((resolve) => (answer = resolve));
  const transport: Transport = { start: async () => undefined, close: async () => undefined, send: async (message) => answer(message) };
  await server.connect(transport);
  transport.onmessage?.({ jsonrpc: '2.0', id: 0, method: 'tools/list' });
  const message = await answered;
  await server.close();
  if (!('result' in message)) throw new Error(`tools/list failed: ${JSON.stringify(message)}`);
  return deepFreeze(message.result as ListToolsResult);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function mcpRouter(deps: McpDeps): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const tools = mcpTools();
  const origins = originGuard(deps.config);
  const newServer = () => new McpServer(MCP_SERVER_INFO, { instructions: MCP_INSTRUCTIONS, jsonSchemaValidator, maxToolInputElements: 1000 });
  let toolList: Promise<ListToolsResult> | undefined;
  const listTools = (): Promise<ListToolsResult> => {
    if (!toolList) {
      const server = newServer();
      registerTools(server, tools, () => {
        throw new Error('tools/list runs no tool');
      });
      toolList = listToolsOnce(server);
      toolList.catch(() => (toolList = undefined)); // a failure is not kept: the next tools/list tries again
    }
    return toolList;
  };

  // Only a tool that reaches out (open world) has work worth cancelling when the client goes away; the tool's
  // logger is made on first use (in practice: on an error).
  const contextFor = (req: Request, res: Response) => (tool: AnyTool): ToolContext => {
    let log: Logger | undefined;
    return {
      ...toolContext(req, res, deps, tool.annotations.openWorldHint),
      get log() {
        return (log ??= (req.log ?? deps.log).child({ tool: tool.name }));
      },
    };
  };

  const handle = async (req: Request, res: Response, _next: NextFunction) => {
    const server = newServer();
    registerTools(server, tools, contextFor(req, res));
    server.server.setRequestHandler(ListToolsRequestSchema, listTools);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // A client that leaves before its answer: stop the handlers still running. After a complete answer nothing is
    // left running (JSON mode answers once every handler has returned) and both objects are simply dropped.
    res.on('close', () => {
      if (!res.writableFinished) void server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      (req.log ?? deps.log).error({ err }, 'MCP request failed');
      sendJsonRpcError(res, 500, -32603, 'Internal error. It has been logged; please retry later.');
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
  router.post(MCP_PATH, origins.check, requireJson, normaliseAccept, parseBody(), singleMessage, handle);
  router.all(MCP_PATH, methodNotAllowed);
  return router;
}
