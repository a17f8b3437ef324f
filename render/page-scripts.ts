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
 * Registered before any page script: records WebMCP declarations and refuses window.open. The page can reach what
 * this leaves on window, so the records stay in this closure and the page sees only a frozen pair of readers; what
 * they return is still the page's to forge (it can replace any built-in), and render/page-data.ts parses it.
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
  candidates: number;
  tools: { name: string; description: string; via: string }[];
  popups: number;
}

/**
 * Reads the page after load: the DOM serialised (capped), WebMCP tools (recorded calls and forms with a
 * toolname attribute), and the visible buy controls, each marked with data-store-readiness-buy="i" so the
 * caller can ask the accessibility tree about it.
 */
export function probePage(maxHtml: number): ProbeResult {
  const buyWords = /add(ing)? to (cart|bag|basket|trolley)|buy (it )?now|\bbuy\b|in den warenkorb|jetzt kaufen|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen/i;
  const buyHints = /add[-_ ]?to[-_ ]?(cart|bag|basket)|addtocart|buy[-_ ]?now|cart[-_]?add|add[-_]?cart|product-form__submit/i;
  const found: Element[] = [];
  for (const el of Array.from(document.querySelectorAll('button, input[type=submit], input[type=button], input[type=image], a, [role=button]') as ArrayLike<Element>).slice(0, 5000)) {
    const words = `${el.textContent ?? ''} ${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''} ${el.value ?? ''}`.slice(0, 300);
    const hints = `${el.id} ${el.getAttribute('class') ?? ''} ${el.getAttribute('name') ?? ''} ${el.getAttribute('data-action') ?? ''} ${(el.closest('form')?.getAttribute('action') ?? '').includes('cart') ? 'add-to-cart' : ''}`.slice(0, 300);
    if (!buyWords.test(words) && !buyHints.test(hints)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    found.push(el);
    if (found.length >= 5) break;
  }
  found.forEach((el, i) => el.setAttribute('data-store-readiness-buy', String(i)));
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
    candidates: found.length,
    tools: [...(recorded?.tools() ?? []), ...forms],
    popups: recorded?.popups() ?? 0,
  };
}

/** What covers the centre of buy control i after it is scrolled into view: a short description, or null. */
export function coverAt(i: number): string | null {
  const el = document.querySelector(`[data-store-readiness-buy="${i}"]`);
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
  const id = layer.id ? `#${layer.id}` : '';
  const cls = (layer.getAttribute('class') ?? '').trim().split(/\s+/)[0];
  const label = layer.getAttribute('aria-label') ?? layer.getAttribute('role') ?? '';
  const words = (layer.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `<${layer.tagName.toLowerCase()}${id}${cls ? `.${cls}` : ''}>${label ? ` (${label.slice(0, 40)})` : ''}${words ? ` "${words}"` : ''}`;
}
