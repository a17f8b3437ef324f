// The API's Error body and its next_action hint, described once for OpenAPI
// (components.schemas.Error / NextAction). lib/errors.ts builds these bodies; this file only describes them.
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../lib/errors.js';

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

export const ErrorBody = z
  .object({
    code: z.enum(ERROR_CODES).describe('Stable error code to branch on; the message may change between versions.'),
    message: z.string().describe('Human-readable explanation; says so when a rate limit was hit.'),
    error: z.string().optional().describe('Legacy copy of message, kept for backward compatibility.'),
    next_action: NextAction.optional(),
  })
  .describe('Every error answer of the service, never an HTML page.')
  .meta({ id: 'Error' });
export type ErrorBodyShape = z.infer<typeof ErrorBody>;
