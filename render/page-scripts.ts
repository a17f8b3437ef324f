// The scripts run inside the rendered page. They are plain functions serialised by playwright-core, so they can
// use nothing from this module; every value they return is written by the page and untrusted.

// The page's globals, loosely typed: these functions run in the browser, and the project compiles without the DOM
// library (its types would clash with Node's).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const navigator: any;
declare const Navigator: any;
declare function getComputedStyle(el: any): { position: string };
type Element = any;

/**
 * Registered before any page script: records WebMCP declarations and refuses window.open and clicks on links aimed at
 * another window. The page can reach what this leaves on window, so the records stay in this closure and the page
 * sees only a frozen pair of readers; what they return is still the page's to forge (it can replace any built-in),
 * and render/page-data.ts parses it.
 */
export function initScript(): void {
  const tools: { name: string; description: string; via: string }[] = [];
  const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
  const record = (tool: unknown, via: string) => {
    if (tools.length >= 50 || !tool || typeof tool !== 'object') return;
    const t = tool as { name?: unknown; description?: unknown };
    tools.push({ name: text(t.name, 100), description: text(t.description, 300), via });
  };
  let popups = 0;
  const readers = Object.freeze({ tools: () => tools.slice(), popups: () => popups });
  Object.defineProperty(window, '__storeReadiness', { value: readers, enumerable: false });
  // A page that opens windows in a loop gets nothing: no new tab, no new process.
  window.open = () => {
    popups++;
    return null;
  };
  // A click on a link aimed at another window (the journey's rule, journey/page-scripts.ts) is refused here too and
  // counted as it happens. A tab that opens anyway (a link outside the document, a form) is closed by the renderer,
  // but counted only once the browser reports it, which on a busy machine can come after the page was read.
  window.addEventListener(
    'click',
    (e: any) => {
      const link = e.composedPath().find((n: any) => n?.localName === 'a' || n?.localName === 'area');
      const target = typeof link?.target === 'string' ? link.target : '';
      if (!target || /^_(self|top|parent)$/i.test(target)) return;
      e.preventDefault();
      popups++;
    },
    true,
  );
  // WebMCP (navigator.modelContext): wrap the browser's own object when it has one, stand one in otherwise.
  const own: Record<string, unknown> | undefined = navigator.modelContext;
  const call = (name: string, args: unknown[]) => {
    const fn = own?.[name];
    return typeof fn === 'function' ? (fn as (...a: unknown[]) => unknown).apply(own, args) : undefined;
  };
  const context = {
    registerTool(tool: unknown) {
      record(tool, 'registerTool');
      return call('registerTool', [tool]);
    },
    provideContext(ctx: unknown) {
      const list = ctx && typeof ctx === 'object' ? (ctx as { tools?: unknown }).tools : undefined;
      if (Array.isArray(list)) for (const tool of list.slice(0, 50)) record(tool, 'provideContext');
      return call('provideContext', [ctx]);
    },
    unregisterTool: (...args: unknown[]) => call('unregisterTool', args),
    clearContext: (...args: unknown[]) => call('clearContext', args),
  };
  Object.defineProperty(Navigator.prototype, 'modelContext', { get: () => context, configurable: true });
}

/** What probePage means to answer; the page can make it answer anything (render/page-data.ts reads it). */
export interface ProbeResult {
  html: string;
  domBytes: number;
  tools: { name: string; description: string; via: string }[];
  popups: number;
}

/** Reads the page after load: the DOM serialised (capped) and WebMCP tools (recorded calls and forms with a toolname attribute). */
export function probePage(maxHtml: number): ProbeResult {
  const recorded: { tools: () => ProbeResult['tools']; popups: () => number } | undefined = window.__storeReadiness;
  const forms = Array.from(document.querySelectorAll('form[toolname]') as ArrayLike<Element>).slice(0, 20).map((f) => ({
    name: (f.getAttribute('toolname') ?? '').slice(0, 100),
    description: (f.getAttribute('tooldescription') ?? '').slice(0, 300),
    via: 'form',
  }));
  const html: string = document.documentElement.outerHTML;
  return {
    html: html.length > maxHtml ? html.slice(0, maxHtml) : html,
    domBytes: html.length,
    tools: [...(recorded?.tools() ?? []), ...forms],
    popups: recorded?.popups() ?? 0,
  };
}

/** What covers the centre of the element `selector` finds after it is scrolled into view: a short description, or null. */
export function coverAt(selector: string): string | null {
  const el = document.querySelector(selector);
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (!hit || el === hit || el.contains(hit) || hit.contains(el)) return null;
  // Name the layer that covers it (the fixed or absolute container of the hit), not a span inside it.
  let layer: Element = hit;
  for (let at: Element | null = hit; at && at !== document.body; at = at.parentElement) {
    const position = getComputedStyle(at).position;
    if (position === 'fixed' || position === 'absolute' || position === 'sticky') layer = at;
  }
  return describeLayer(layer);
}

/**
 * A layer named for the report: tag, id, first class, label or role, and its first words. Page expressions get it as
 * a helper (render-run.ts `inPage`), so coverAt and findOverlay name layers alike.
 */
export function describeLayer(layer: Element): string {
  const id = layer.id ? `#${layer.id}` : '';
  const cls = (layer.getAttribute('class') ?? '').trim().split(/\s+/)[0];
  const label = layer.getAttribute('aria-label') ?? layer.getAttribute('role') ?? '';
  const words = (layer.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `<${layer.tagName.toLowerCase()}${id}${cls ? `.${cls}` : ''}>${label ? ` (${label.slice(0, 40)})` : ''}${words ? ` "${words}"` : ''}`;
}

/**
 * A fixed or absolute layer that covers most of the viewport after load (a cookie wall, a newsletter modal) and does
 * not hold the page's own heading: a short description of it, or null. The viewport is sampled on a 5 × 5 grid.
 */
export function findOverlay(): string | null {
  window.scrollTo(0, 0);
  const width = window.innerWidth;
  const height = window.innerHeight;
  const counts = new Map<Element, number>();
  const grid = 5;
  for (let x = 0; x < grid; x++) {
    for (let y = 0; y < grid; y++) {
      const hit = document.elementFromPoint(((x + 0.5) * width) / grid, ((y + 0.5) * height) / grid);
      let layer: Element | null = null;
      for (let at: Element | null = hit; at && at !== document.body && at !== document.documentElement; at = at.parentElement) {
        const position = getComputedStyle(at).position;
        if (position === 'fixed' || position === 'absolute') layer = at;
      }
      if (layer) counts.set(layer, (counts.get(layer) ?? 0) + 1);
    }
  }
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (!top || top[1] < grid * grid * 0.6) return null;
  const layer = top[0];
  const heading = document.querySelector('h1');
  if (heading && layer.contains(heading)) return null; // the page itself lives in a fixed frame
  return `${describeLayer(layer)} over ${Math.round((top[1] / (grid * grid)) * 100)}% of the viewport`;
}
