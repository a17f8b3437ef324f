// The CPU-heavy reading of fetched bodies, as plain data in and plain data out so it can run on a worker thread
// (scan/parser-threads/page-pool.ts) as well as in line: HTML pages parsed (scan/documents/html.ts), recognised and, when they look like
// product pages, extracted (scan/products/recognize.ts, scan/products/product.ts); sitemaps parsed (scan/documents/sitemap.ts). Only calls
// those functions: what a page means is decided there.
import type { PageFacts, ProductFacts } from '../artifacts.js';
import { parse } from 'parse5';
import { parsePage, type ParseOptions } from '../documents/html.js';
import { structureSignature } from '../documents/page-structure.js';
import { extractProduct } from '../products/product.js';
import { recognizeProductPage, type Recognition } from '../products/recognize.js';
import { parseSitemap, type SitemapDoc } from '../documents/sitemap.js';

export interface PageTask {
  kind: 'page';
  html: string;
  url: string;
  opts: ParseOptions;
  /** Recognise the page as a product page (and extract its product when it is one, or carries Product markup). */
  recognise: boolean;
  /** Also sign the page's element structure (scan/documents/page-structure.ts), to group pages by template. */
  structure?: boolean;
}

export interface PageRead {
  page: PageFacts;
  recognition: Recognition | null;
  product: ProductFacts | null;
  /** The structure signature, when asked for. */
  structure?: number[];
}

export interface SitemapTask {
  kind: 'sitemap';
  xml: string;
}

export type BodyTask = PageTask | SitemapTask;
export type BodyRead<T extends BodyTask> = T extends PageTask ? PageRead : SitemapDoc;

export function readPage(task: PageTask): PageRead {
  const doc = parse(task.html);
  const page = parsePage(task.html, task.url, task.opts, doc);
  const recognition = task.recognise ? recognizeProductPage(page) : null;
  const product = recognition && (recognition.isProduct || recognition.byMarkup) ? extractProduct(page, recognition) : null;
  return task.structure ? { page, recognition, product, structure: structureSignature(doc) } : { page, recognition, product };
}

export function readBody<T extends BodyTask>(task: T): BodyRead<T> {
  return (task.kind === 'page' ? readPage(task) : parseSitemap(task.xml)) as BodyRead<T>;
}
