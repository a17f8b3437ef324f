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

// The buying journey's page scripts (render/journey/page-scripts.ts), each answer through its schema and cut to the
// journey's caps. A journey step reads them with `fromPage`: an answer that does not fit, or none in time, is the
// step's fallback (no field, no control, no count), never a value passed on.

/** The home page's search field: how it was recognised and whether it shows. */
export const SearchFieldAnswer = z.object({ kind: cut(60), visible: z.boolean() }).nullable();
/** Links to the product on a results page. */
export const LinksAnswer = z.number().int().min(0).max(CAPS.count);
/** Controls a journey script marked by name: at most the 20 it marks, each name cut. */
export const NamedControlsAnswer = z.array(z.object({ k: z.int().min(0).max(20), name: cut(CAPS.journeyControlName), tag: cut(20) })).max(20);
/** The required choices marked, and those with no available option. */
export const ChoicesAnswer = z.object({
  choices: z.array(z.object({ k: z.int().min(0).max(20), kind: z.enum(['select', 'radio', 'swatch']), label: cut(60), option: cut(60), value: cut(200) })).max(10),
  unavailable: z.array(cut(60)).max(10),
});
/** The number a cart link or badge shows. */
export const CartCountAnswer = z.int().min(0).max(999).nullable();
/** A layer's short description: what covers a control, a drawer naming the product. */
export const LayerAnswer = cut(CAPS.coveredBy).nullable();
export const FlagAnswer = z.boolean();
/** A product's name, read from the rendered page. */
export const NameAnswer = cut(CAPS.journeyName).nullable();
/** What the page the checkout control led to holds. */
export const LandingAnswer = z.object({
  fields: z.array(cut(30)).max(CAPS.journeyFields),
  password: z.boolean(),
  frames: z.array(cut(100)).max(CAPS.journeyFields),
  captcha: z.enum(['reCAPTCHA', 'hCaptcha', 'Cloudflare Turnstile']).nullable(),
  human: z.boolean(),
  guest: z.boolean(),
  wall: z.boolean(),
});
/** axe-core's violations as the run expression maps them; an impact outside axe's four is none. */
export const AxeAnswer = z
  .array(
    z.object({
      id: cut(60),
      impact: z.enum(['minor', 'moderate', 'serious', 'critical']).nullable().catch(null),
      help: cut(CAPS.axeText),
      nodes: z.array(z.object({ target: z.array(z.unknown()).max(20) })).max(10_000),
    }),
  )
  .max(200)
  .nullable();

/** The answer parsed; `fallback` when it does not fit its schema or the script failed or did not answer in time. */
export async function fromPage<S extends z.ZodType>(schema: S, answer: Promise<unknown>, fallback: z.output<S>): Promise<z.output<S>> {
  try {
    const parsed = schema.safeParse(await answer);
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
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
