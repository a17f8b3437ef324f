// What a tool is: declared once as data (name, texts for a model, zod input/output, explicit hints, surfaces)
// plus a handler returning plain data or throwing AppError. Imports neither express nor the MCP SDK: the
// MCP server, the function-calling definitions, the REST routes and OpenAPI are loops over these declarations.
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Config } from '../lib/config.js';
import type { Repository } from '../db/repo.js';
import type { PageRenderer } from '../scan/fetching/render.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import type { AppState } from './app-state.js';
import type { RequestSigner } from '../outbound/request-signer.js';

export type Surface = 'mcp' | 'functions';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  destructiveHint: boolean;
}

export interface Caller {
  kind: 'anonymous' | 'pro';
  keyId: string | null;
  ip: string;
  /** The console account behind a Pro caller (its key's, or its signed-in session's), if any. */
  accountId?: string | null;
  /** A scheduled scan of the account's monitor: it never shares a running scan started by someone else. */
  monitor?: boolean;
}

export interface ToolContext {
  db: Repository;
  config: Config;
  log: Logger;
  caller: Caller;
  baseUrl: string;
  signal?: AbortSignal; // aborted when the HTTP client goes away
  /** The app's metrics (scans by outcome and duration, refusals); absent where nothing is measured. */
  metrics?: ServiceMetrics;
  /** Test seams for the scanner (injected DNS, address allow-list); never set in production. */
  scanOverrides?: { lookup?: unknown; allowIPAddressList?: string[]; requestTimeoutMs?: number };
  /** The instance's browser for "what browser agents see"; absent when it has none. */
  renderer?: PageRenderer;
  /** The signer of the scanner's requests (Web Bot Auth, bot-auth/keyring.ts); absent when SIGN_REQUESTS is off. */
  requestSigner?: () => Promise<RequestSigner>;
  /** What the app keeps between calls (its scan bound, running scans, caches): made by createApp, one per app. */
  app: AppState;
}

export interface Hold {
  release(): void;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject, P extends Hold | undefined = undefined> {
  name: string; // snake_case, from the spec
  title: string;
  description: string; // for a model: what comes back and when to use it; never the argument list
  input: I;
  output: O;
  annotations: ToolAnnotations;
  expose: Surface[];
  /**
   * Refusals that need the configuration (a scan target's address policy, a full scanner), made before any
   * quota is counted: a call refused here costs the caller nothing. Throws AppError. May return a hold on
   * something the handler will use (a scan place): tools/invoke.ts hands it to the handler and releases it once
   * the call is over, whatever happened (releasing what the handler used does nothing).
   */
  preflight?(args: z.output<I>, ctx: ToolContext): P;
  /** `prepared` is what preflight returned (undefined when the tool has none). */
  handler(args: z.output<I>, ctx: ToolContext, prepared?: P): Promise<z.output<O>>;
  /**
   * The answer as the JSON bytes the handler's value serialises to, for a tool whose answer is stored JSON: REST
   * sends them as they are, sparing a parse and a re-serialisation per request.
   */
  storedJson?(args: z.output<I>, ctx: ToolContext): Promise<Buffer>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject, P extends Hold | undefined = undefined>(def: ToolDef<I, O, P>): ToolDef<I, O, P> {
  return def;
}

/** A tool of any shape, for the lists that loop over all of them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDef<any, any, any>;

/**
 * The schema as a tool surface (MCP tools/list) must publish it: a top-level object. A schema carrying a
 * component id (`.meta({ id })`, for OpenAPI) converts to a top-level `$ref`, which MCP clients refuse; a copy
 * without the id converts inline, its nested components still shared.
 */
export function inlineTopLevel<S extends z.ZodObject>(schema: S): S {
  const meta = schema.meta();
  if (meta?.id === undefined) return schema;
  const { id: _id, ...rest } = meta;
  const copy = schema.extend({}) as S;
  return Object.keys(rest).length > 0 ? (copy.meta(rest) as S) : copy;
}
