// Function-calling definitions for custom agents, generated from the
// tool declarations with expose ∋ 'functions'. GET /api/v1/tools.json answers OpenAI's `tools` shape
// ({type: 'function', function: {name, description, parameters}}); ?format=anthropic answers Anthropic's
// ({name, description, input_schema}) and ?format=gemini Gemini's `tools` entry ({functionDeclarations: [{name,
// description, parameters}]}, parameters in Gemini's Schema shape, well-known/gemini-schema.ts). `parameters` is the
// zod input as JSON Schema (draft 2020-12, io: 'input') without `$schema`: the same schema MCP tools/list shows,
// which test/well-known/function-defs.test.ts proves.
import { z } from 'zod';
import { Router, type RequestHandler } from 'express';
import { AppError } from '../lib/errors.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { TOOLS } from '../tools/index.js';
import type { AnyTool } from '../tools/tool.js';
import { FUNCTION_DEFS_FORMATS, FUNCTION_DEFS_PATHS, type FunctionDefsFormat } from '../lib/links.js';
import { geminiSchema } from './gemini-schema.js';

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

/** Gemini's `tools` list: one Tool holding every declaration, ready for a generateContent request's `tools`. */
export function geminiFunctionDefs(tools: AnyTool[] = functionTools()) {
  return {
    tools: [
      {
        functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: geminiSchema(inputJsonSchema(t)) })),
      },
    ],
  };
}

const RENDER: Record<FunctionDefsFormat, () => unknown> = {
  openai: openAiFunctionDefs,
  anthropic: anthropicFunctionDefs,
  gemini: geminiFunctionDefs,
};

/** GET /api/v1/tools.json and its /api alias; every body rendered once. */
export function functionDefsRouter(): Router {
  const bodies = new Map(FUNCTION_DEFS_FORMATS.map((f) => [f, JSON.stringify(RENDER[f]())] as const));
  const send: RequestHandler = (req, res) => {
    const format = req.query.format ?? 'openai';
    const body = typeof format === 'string' ? bodies.get(format as FunctionDefsFormat) : undefined;
    if (body === undefined) {
      throw new AppError('INVALID_PARAMS', `format must be one of ${FUNCTION_DEFS_FORMATS.map((f) => `"${f}"`).join(', ')} ("openai" by default).`);
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/json').send(body);
  };
  const router = Router({ strict: false, caseSensitive: true });
  for (const path of FUNCTION_DEFS_PATHS) {
    router.get(path, send);
    router.all(path, methodNotAllowed(['GET']));
  }
  return router;
}
