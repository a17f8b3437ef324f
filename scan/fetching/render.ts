// What the audit engine asks of a browser, and what it gets back. The engine never drives a browser itself: the
// composition root (server/) passes a PageRenderer in, so scans run and are tested the same without one.
import type { AddressLimits } from '../../outbound/fetch.js';
import type { TargetPolicy } from '../../outbound/url.js';

/** What one render may spend, besides its wall time: requests and bytes of everything the pages load. */
export const RENDER_BUDGET = { maxRequests: 300, maxBytes: 32 * 1024 * 1024 };
/** Product pages rendered per scan (as many as the raw scan samples), after the address scanned. */
export const RENDERED_PRODUCT_PAGES = 2;

export interface RenderRequest {
  /** The pages to render, home page first. */
  pages: { url: string; kind: 'home' | 'product' }[];
  /** BASE_URL: the browser's User-Agent names the scanner and its /bot page, as the raw fetches do. */
  baseUrl: string;
  /** The scan's address rules: every request the browser makes is judged by them. */
  rules: AddressLimits & { allowedPorts: TargetPolicy['allowedPorts'] };
  /** Wall time for the whole render, all pages together. */
  deadlineMs: number;
  /** The page to photograph (a product page when there is one). */
  screenshotUrl: string | null;
  signal?: AbortSignal;
}

export interface RenderedBuyControl {
  role: string | null;
  name: string;
  enabled: boolean;
  coveredBy: string | null;
  /** Why it was taken for a buy control: its words, a cart-like hint, a cart form, a cart icon, or its place by the price. */
  reason: 'words' | 'hint' | 'cart_form' | 'icon' | 'near_price';
}

export interface RenderedWebMcpTool {
  name: string;
  description: string;
  via: 'registerTool' | 'provideContext' | 'form';
}

export interface RenderedPage {
  url: string;
  kind: 'home' | 'product';
  outcome: 'rendered' | 'timeout' | 'crashed' | 'failed' | 'skipped';
  detail: string | null;
  status: number | null;
  /** The DOM after scripts ran, serialised and capped; empty when the page could not be read. */
  html: string;
  finalUrl: string | null;
  buyControls: RenderedBuyControl[];
  /** The page was searched for buy controls and each one found was read (not cut short by the render's time). */
  buyControlsAllRead: boolean;
  /** A layer over most of the viewport after load (a cookie wall), described, or null. */
  overlay: string | null;
  webmcpTools: RenderedWebMcpTool[];
  popupsBlocked: number;
  dialogsDismissed: number;
  /** Size of the serialised DOM after scripts ran (html holds at most the first 2 MiB). */
  domBytes: number;
  ms: number;
}

export interface RenderRun {
  pages: RenderedPage[];
  screenshot: { url: string; dataUrl: string } | null;
  /** Why the screenshot is smaller than usual or missing (over the byte cap), or null. */
  screenshotNote: string | null;
  requests: number;
  refusedCount: number;
  refused: { url: string; why: string }[];
  budgetSpent: string | null;
  ms: number;
}

export interface PageRenderer {
  /** A short description for the report ("headless Chromium 131"). */
  readonly label: string;
  /** Never throws for anything a page does; throws only when the browser itself cannot be used. */
  render(request: RenderRequest): Promise<RenderRun>;
}
