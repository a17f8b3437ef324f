// Markdown for agents: `/`, `/index` and `/r/{scan_id}` answer `Accept: text/markdown` with a compact Markdown
// rendering instead of the HTML page (same URL, `Vary: Accept`). Store text is escaped here too: Markdown is often
// rendered to HTML downstream, so a store must not be able to smuggle markup, links or table cells into it.
import type { Request, Response } from 'express';
import { linkHeader } from '../lib/links.js';
import { setPageHeader } from './html.js';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** Does the client prefer Markdown to HTML? Browsers, wildcard Accepts and clients that name neither get HTML. */
export function wantsMarkdown(req: Request): boolean {
  return req.accepts(['text/html', 'text/markdown']) === 'text/markdown';
}

/** The headers both representations of a negotiated page carry: Vary, and Link to the other one and our documents. */
export function negotiatedHeaders(baseUrl: string, path: string, served: 'text/html' | 'text/markdown'): Record<string, string> {
  const other = served === 'text/html' ? 'text/markdown' : 'text/html';
  return { Vary: 'Accept', Link: linkHeader(baseUrl, { href: `${baseUrl}${path}`, type: other }) };
}

export interface MarkdownOptions {
  status?: number;
  cacheControl?: string;
  headers?: Record<string, string>;
}

export function sendMarkdown(res: Response, markdown: string, opts: MarkdownOptions = {}): void {
  res.status(opts.status ?? 200);
  res.setHeader('Content-Type', MARKDOWN_TYPE);
  // A browser never renders text/markdown as a page, but nothing in it may run or load even if one tried.
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', opts.cacheControl ?? 'no-cache');
  for (const [name, value] of Object.entries(opts.headers ?? {})) setPageHeader(res, name, value);
  res.send(markdown);
}

/**
 * Text from a store (or any value we did not write), made inert for Markdown: one line, at most `max` characters,
 * and every character that could start markup, a link, an HTML tag, emphasis, code or a table cell backslash-escaped
 * (CommonMark: an escaped ASCII punctuation character is literal text).
 */
export function mdText(value: unknown, max = 300): string {
  const flat = String(value ?? '')
    .slice(0, max * 4)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut.replace(/[\\`*_[\]<>|~#!{}()]/g, (c) => `\\${c}`);
}

/** Our own multi-line texts (fix how-tos, already Markdown): kept as they are, folded onto one list line. */
export const oneLine = (text: string): string => text.replace(/\s*\n+\s*/g, ' ').trim();
