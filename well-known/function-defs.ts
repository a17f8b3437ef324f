// Function-calling definitions for custom agents, generated from the
// tool declarations with expose ∋ 'functions'. GET /api/v1/tools.json answers OpenAI's `tools` shape
// ({type: 'function', function: {name, description, parameters}}); ?format=anthropic answers Anthropic's
// ({name, description, input_schema}). `parameters` is the zod input as JSON Schema (draft 2020-12, io: 'input')
// without `$schema`: the same schema MCP tools/list shows, which test/well-known/function-defs.test.ts proves.
import { z } from 'zod';
import { Router, type RequestHandler } from 'express';
import { AppError } from '../lib/errors.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { TOOLS } from '../tools/index.js';
import type { AnyTool } from '../tools/tool.js';
import { FUNCTION_DEFS_PATHS } from '../lib/links.js';

export type JsonSchema = Record<string, unknown>;

/** A tool's input as portable JSON Schema, without `$schema` (function-calling APIs reject or ignore it). */
export function inputJsonSchema(tool: AnyTool): JsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.input, { io: 'input' }) as JsonSchema;
  return schema;
}

export const functionTools = (): AnyTool[] => TOOLS.filter((t) => t.expose.includes('functions'));

export function openAiFunctionDefs(tools: AnyTool[] = functionTools()) {
  return {
    tools: tools.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: inputJsonSchema(t) },
    })),
  };
}

export function anthropicFunctionDefs(tools: AnyTool[] = functionTools()) {
  return { tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: inputJsonSchema(t) })) };
}

/** GET /api/v1/tools.json and its /api alias; both bodies rendered once. */
export function functionDefsRouter(): Router {
  const bodies: Record<string, string> = {
    openai: JSON.stringify(openAiFunctionDefs()),
    anthropic: JSON.stringify(anthropicFunctionDefs()),
  };
  const send: RequestHandler = (req, res) => {
    const format = req.query.format ?? 'openai';
    if (typeof format !== 'string' || !Object.hasOwn(bodies, format)) {
      throw new AppError('INVALID_PARAMS', 'format must be "openai" (the default) or "anthropic".');
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/json').send(bodies[format]);
  };
  const router = Router({ strict: false, caseSensitive: true });
  for (const path of FUNCTION_DEFS_PATHS) {
    router.get(path, send);
    router.all(path, methodNotAllowed(['GET']));
  }
  return router;
}
