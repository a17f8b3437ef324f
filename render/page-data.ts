// The boundary between a rendered page and its report. Everything the page scripts hand back (render/page-scripts.ts)
// and what Chromium's accessibility tree says about the page's controls is written by the page: it can replace any
// built-in our scripts use, push into anything it can reach and return any type. Each value is parsed here with a
// schema of its own (types, enums, lengths, counts) and cut to the caps of schemas/browser-view.ts before anything
// else reads it; what does not fit is refused, never passed on. A new value read from a page gets its schema here.
import { z } from 'zod';
import { BROWSER_VIEW_CAPS as CAPS } from '../schemas/browser-view.js';
import type { RenderedBuyControl, RenderedWebMcpTool } from '../scan/fetching/render.js';
import { BUY_CONTROL_REASONS } from './buy-controls.js';

/** The rendered DOM kept for reading, like the fetcher's cap on an HTML body (scan/browser-view.ts reports more). */
export const MAX_HTML = 2 * 1024 * 1024;
/** Entries of the page's WebMCP list looked at: a list of a million costs no more than this. */
const WEBMCP_ENTRIES_READ = 4 * CAPS.webmcpTools;
/** Characters of an accessibility snapshot read for one control's role and name (the snapshot lists its children too). */
const SNAPSHOT_READ = 4 * CAPS.accessibleName + 100;

/** A page's string, kept but cut to `max` characters. */
const cut = (max: number) => z.string().transform((s) => s.slice(0, max));
/** A page's count: a whole number, at least 0, at most the cap; anything else counts nothing. */
const count = (max: number) => z.number().int().min(0).transform((n) => Math.min(n, max)).catch(0);

/** One WebMCP tool as the page declared it; an entry of another shape or with another `via` is refused. */
export const WebMcpToolAnswer = z.object({
  name: cut(CAPS.webmcpName),
  description: cut(CAPS.webmcpDescription),
  via: z.enum(['registerTool', 'provideContext', 'form']),
});

/** The WebMCP list: the first valid entries up to the cap, from the first few hundred entries; anything else is none. */
const WebMcpListAnswer = z
  .array(z.unknown())
  .catch([])
  .transform((entries): RenderedWebMcpTool[] => {
    const tools: RenderedWebMcpTool[] = [];
    for (const entry of entries.slice(0, WEBMCP_ENTRIES_READ)) {
      const tool = WebMcpToolAnswer.safeParse(entry);
      if (tool.success) tools.push(tool.data);
      if (tools.length >= CAPS.webmcpTools) break;
    }
    return tools;
  });

/** What probePage answers: the serialised DOM (cut), its size, the WebMCP tools, windows blocked. */
export const ProbeAnswer = z.object({
  html: cut(MAX_HTML).catch(''),
  domBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).catch(0),
  tools: WebMcpListAnswer,
  popups: count(CAPS.count),
});
export type ProbeAnswer = z.infer<typeof ProbeAnswer>;

/** Reads probePage's answer; null when it is not an object at all (the page replaced what the probe relies on). */
export function readProbe(raw: unknown): ProbeAnswer | null {
  const probe = ProbeAnswer.safeParse(raw);
  return probe.success ? probe.data : null;
}

/** What coverAt answers: a short description of the covering layer, or null. */
const CoverAnswer = cut(CAPS.coveredBy).nullable().catch(null);

export function readCover(raw: unknown): string | null {
  return CoverAnswer.parse(raw);
}

/**
 * The role and accessible name in the first line of a control's accessibility snapshot (`- button "Add to cart"`); a
 * name longer than what is read keeps its beginning.
 */
const SnapshotAnswer = z
  .string()
  .catch('')
  .transform((snapshot) => {
    const [, role = null, name = ''] = /^- ([a-z]+)(?: "((?:[^"\\]|\\.)*)"?)?/.exec(snapshot.slice(0, SNAPSHOT_READ)) ?? [];
    return {
      role: role !== null && role.length <= CAPS.role ? role : null,
      name: name.replace(/\\(.)/g, '$1').slice(0, CAPS.accessibleName),
    };
  });

/** One buy control from its snapshot, whether it is enabled, and what covers it: each read through its schema. */
export function readBuyControl(snapshot: unknown, enabled: unknown, coveredBy: unknown): Omit<RenderedBuyControl, 'reason'> {
  return { ...SnapshotAnswer.parse(snapshot), enabled: enabled === true, coveredBy: readCover(coveredBy) };
}

/** What markBuyControls answers: why each marked control was taken, in mark order, at most the cap; else none. */
const MarkedAnswer = z
  .object({ reasons: z.array(z.enum(BUY_CONTROL_REASONS)).max(CAPS.buyControls) })
  .transform((m) => m.reasons)
  .catch([]);

export function readMarkedBuyControls(raw: unknown): RenderedBuyControl['reason'][] {
  return MarkedAnswer.parse(raw);
}

/** What findOverlay answers: a short description of the layer over the page, or null. */
const OverlayAnswer = cut(CAPS.coveredBy + 40).nullable().catch(null);

export function readOverlay(raw: unknown): string | null {
  return OverlayAnswer.parse(raw);
}
