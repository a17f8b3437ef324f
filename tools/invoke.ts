// The one way to call a tool, whichever surface asks (REST, the home form, MCP, the monitoring worker):
// validate the arguments → make the context → preflight → count the call → run the handler → release what
// preflight held. Refusals before the count (bad arguments, a refused target, a full scanner) cost no quota.
// Errors leave as thrown: each surface turns them into its own answer through answerableError (lib/http-errors.ts).
import type { z } from 'zod';
import { AppError } from '../lib/errors.js';
import type { AnyTool, ToolContext } from './tool.js';

export interface InvokeOptions {
  /** Makes the call's context once the arguments are known to be good (a REST context listens for a disconnect). */
  context: () => ToolContext;
  /**
   * Counts the call against the caller's quota, once it is known to be good; throws to refuse it. Each surface
   * says how: the API and the form through their rate limiter, the monitoring worker through the account's quota.
   */
  count?: () => Promise<void>;
  /** The error for arguments the tool's schema refuses (default: INVALID_PARAMS listing the issues). */
  invalid?: (issues: z.core.$ZodIssue[]) => AppError;
  /** Answer the tool's stored JSON bytes when it has them (REST), instead of the handler's value. */
  stored?: boolean;
}

/** The answer of a call: the handler's value, or the stored JSON bytes when asked for and the tool has them. */
export type Invoked = { value: unknown; json?: undefined } | { value?: undefined; json: Buffer };

/** The first five issues, each as "path: message". */
export const describeIssues = (issues: z.core.$ZodIssue[]): string =>
  issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');

export async function invoke(tool: AnyTool, rawArgs: unknown, options: InvokeOptions): Promise<Invoked> {
  const parsed = tool.input.safeParse(rawArgs);
  if (!parsed.success) {
    throw options.invalid?.(parsed.error.issues) ?? new AppError('INVALID_PARAMS', describeIssues(parsed.error.issues));
  }
  const ctx = options.context();
  ctx.app.observeInvoke?.(tool.name);
  const prepared = tool.preflight?.(parsed.data, ctx);
  try {
    // Counted only now that the call is known to be good: refused calls never spend quota.
    await options.count?.();
    if (options.stored && tool.storedJson) return { json: await tool.storedJson(parsed.data, ctx) };
    return { value: await tool.handler(parsed.data, ctx, prepared) };
  } finally {
    prepared?.release();
  }
}
