// What an MCP prompt is: declared once as data (name, texts, zod arguments, which arguments complete from what)
// plus a render returning the user message. Imports neither express nor the MCP SDK: mcp/server.ts registers
// every declaration; the server card, llms.txt and README list them from here.
import type { z } from 'zod';
import type { Completion, ReadContext } from '../resources/resource.js';

export interface PromptDef<A extends z.ZodObject = z.ZodObject> {
  name: string; // snake_case
  title: string;
  description: string; // what the prompt asks a model to do, for a person picking it
  /** String arguments (MCP prompt arguments are strings), validated like tool input before render runs. */
  args: A;
  complete: { [K in keyof z.output<A>]?: Completion };
  /** The user message. An unknown store is said in the text; bad arguments throw AppError. */
  render(args: z.output<A>, ctx: ReadContext): Promise<string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPrompt = PromptDef<any>;

export function definePrompt<A extends z.ZodObject>(def: PromptDef<A>): PromptDef<A> {
  return def;
}

/** Store text (evidence, titles) kept to one short line inside a prompt. */
export function inline(text: unknown, max = 200): string {
  const line = String(text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
