// What an MCP resource is: declared once as data (URI or URI template, name, texts for a model, media type) plus a
// read returning the text. Like tools/tool.ts it imports neither express nor the MCP SDK: mcp/server.ts registers
// every declaration, and the server card, llms.txt and README list them from here.
import type { z } from 'zod';
import type { RankRow, Repository } from '../../db/repo.js';
import type { ScanResult } from '../../schemas/scan-result.js';

/**
 * The public documents a resource serves as they are served on the web. They are rendered by layers above this one
 * (pages, well-known), so the composition root hands them in.
 */
export interface PublicDocuments {
  llmsTxt(): string;
  reportMarkdown(report: ScanResult): string;
  indexMarkdown(view: { rows: RankRow[]; total: number; vertical: string | null }): string;
}

export interface ReadContext {
  db: Repository;
  baseUrl: string;
  documents: PublicDocuments;
}

/** What an argument can be completed from: hosts of the readiness index by prefix, or the store categories. */
export type Completion = 'host' | 'hosts' | 'vertical';

interface ResourceTexts {
  name: string; // snake_case, unique among resources and templates
  title: string;
  description: string; // for a model and a person picking it: what the text holds
  mimeType: 'text/markdown' | 'text/plain' | 'application/json';
  /** The text quotes what a store wrote on its pages: MCP serves it after the untrusted-content note. */
  storeText?: true;
}

export interface ResourceDef extends ResourceTexts {
  uri: string;
  read(ctx: ReadContext): Promise<string>;
}

export interface ResourceTemplateDef<V extends z.ZodObject = z.ZodObject> extends ResourceTexts {
  uriTemplate: string; // RFC 6570 level 1: every {variable} is a key of `variables`
  /** The template's variables, validated like tool input before read runs. */
  variables: V;
  complete: { [K in keyof z.output<V>]?: Completion };
  read(vars: z.output<V>, ctx: ReadContext): Promise<string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceTemplate = ResourceTemplateDef<any>;

export const defineResource = (def: ResourceDef): ResourceDef => def;

export function defineResourceTemplate<V extends z.ZodObject>(def: ResourceTemplateDef<V>): ResourceTemplateDef<V> {
  return def;
}

/** How many stores the readiness index resources list: the first page of GET /index. */
export const INDEX_TOP_SIZE = 50;

/** The URI scheme of every resource: stable whatever BASE_URL the service runs under. */
export const RESOURCE_SCHEME = 'readiness://';
