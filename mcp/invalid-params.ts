// Requests whose params do not fit the method, answered before the SDK sees them. Left to the SDK, a wrongly typed
// parameter (resources/read with a number for its uri) is a -32603 internal error carrying the validator's whole
// issue list, on both revisions; it is the client's mistake, so it is -32602 and one sentence naming the parameter.
// The schemas are the SDK's own, so what passes here is what the SDK accepts. The arguments inside tools/call are
// the tool's to judge: a tool's input error is a tool result with isError, as MCP asks, so a model can correct it.
import { specTypeSchemas, type SpecTypeName } from '@modelcontextprotocol/server';

/** The schema of each request method this server answers, on both revisions unless the table says otherwise. */
const REQUEST_TYPES: Record<string, SpecTypeName> = {
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
};
/** Methods of the 2026-07-28 revision only. */
const MODERN_TYPES: Record<string, SpecTypeName> = {
  'server/discover': 'DiscoverRequest',
  'subscriptions/listen': 'SubscriptionsListenRequest',
};

/** One sentence saying which parameter is wrong, or null when the params fit the method (or it is not one we know). */
export function invalidParams(method: string, params: unknown, modern: boolean): string | null {
  const type = Object.hasOwn(REQUEST_TYPES, method) ? REQUEST_TYPES[method] : modern && Object.hasOwn(MODERN_TYPES, method) ? MODERN_TYPES[method] : undefined;
  if (!type) return null;
  const checked = specTypeSchemas[type]['~standard'].validate(params === undefined ? { method } : { method, params });
  if (checked instanceof Promise || !checked.issues) return null;
  const [issue] = checked.issues;
  const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.') || 'params';
  const why = issue.message === 'Invalid input' ? 'not one of the shapes it takes' : issue.message.replace(/^Invalid input: /, '');
  return `Invalid params: ${path} is wrong for ${method} (${why}).`;
}
