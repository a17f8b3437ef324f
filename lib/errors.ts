// One error type for the whole service, its HTTP status table, and the JSON error body of the API (its zod
// schema, which OpenAPI publishes as components.schemas.Error / NextAction, and its type, inferred from it).
// Handlers throw AppError; the edges (REST middleware, MCP adapter) translate it. Nothing else decides a status.
import { z } from 'zod';

export const ERROR_STATUS = {
  MISSING_URL: 400,
  INVALID_URL: 400,
  INVALID_PARAMS: 400,
  INVALID_BODY: 400,
  UNAUTHORIZED: 401,
  CROSS_SITE_REFUSED: 403,
  NOT_FOUND: 404,
  SCAN_NOT_FOUND: 404,
  HOST_NOT_FOUND: 404,
  AUDIT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  AUDIT_RUNNING: 409,
  AUDITS_AT_LIMIT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  STORE_UNREACHABLE: 502,
  SERVICE_UNAVAILABLE: 503,
  SCANNER_BUSY: 503,
  SCAN_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const NextAction = z
  .object({
    method: z.string().describe('HTTP method of the suggested call, e.g. "GET".'),
    endpoint: z.string().describe('Path of the suggested call, e.g. "/api/v1/scan".'),
    params: z.record(z.string(), z.unknown()).optional().describe('Suggested arguments for the call.'),
    description: z.string().describe('What the suggested call does and why it helps.'),
  })
  .describe('Machine-parseable hint: the call that resolves this error.')
  .meta({ id: 'NextAction' });
export type NextAction = z.output<typeof NextAction>;

export const ErrorBody = z
  .object({
    code: z.enum(ERROR_CODES).describe('Stable error code to branch on; the message may change between versions.'),
    message: z.string().describe('Human-readable explanation; says so when a rate limit was hit.'),
    error: z.string().optional().describe('Legacy copy of message, kept for backward compatibility.'),
    next_action: NextAction.optional(),
  })
  .describe('Every error answer of the service, never an HTML page.')
  .meta({ id: 'Error' });
export type ErrorBody = z.output<typeof ErrorBody>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly nextAction?: NextAction;
  /** Extra response headers (Allow, Retry-After, WWW-Authenticate). */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, nextAction?: NextAction, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.nextAction = nextAction;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function toErrorBody(err: AppError): ErrorBody {
  const body: ErrorBody = { code: err.code, message: err.message, error: err.message };
  if (err.nextAction) body.next_action = err.nextAction;
  return body;
}

export const GENERIC_INTERNAL_MESSAGE = 'Something went wrong on our side. The error has been logged; please retry later.';

export const scanNextAction = (description: string, params?: Record<string, unknown>): NextAction => ({
  method: 'GET',
  endpoint: '/api/v1/scan',
  params: params ?? { url: 'https://your-store.example' },
  description,
});
