// "What browser agents see" (docs/checks.md §12): the rendered pages read with the same extractors as
// the raw ones, compared with what crawlers got, turned into findings with fixes. Reported beside the score and
// never counted in it: the public score must not depend on whether the scanning instance had a browser.
import type { BrowserFinding, BrowserView, RenderedPageView } from '../schemas/browser-view.js';
import type { Artifacts, HttpResponse, PageFacts, ProductFacts } from './artifacts.js';
import { challengeMarker } from './documents/challenge.js';
import { nameIndex, normText } from './checks/page-text.js';
import type { BodyReader } from './parser-threads/page-pool.js';
import type { PageRead } from './parser-threads/page-work.js';
import { priceMentions, samePrice, visiblePrices } from './products/price.js';
import { RENDERED_PRODUCT_PAGES, type PageRenderer, type RenderedPage, type RenderRequest, type RenderRun } from './fetching/render.js';

/** Words of an add-to-cart or buy control, in the languages the scanner reads. */
const BUY_WORDS = /add(ing)? to (cart|bag|basket|trolley)|buy (it )?now|\bbuy\b|in den warenkorb|jetzt kaufen|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen/i;

/** The rendered DOM an agent reads, like the fetcher's cap on an HTML body. */
const MAX_READ_DOM = 2 * 1024 * 1024;


/**
 * The pages a browser agent would open: the home page and the sampled product pages; when fewer were recognised
 * in the raw HTML, the product links that answered with something else (an app shell a script fills).
 */
export function renderTargets(a: Artifacts): RenderRequest['pages'] {
  const home = a.home.ok ? a.home.res.url : a.inputUrl;
  const productLinks = new Set([...a.productUrlsFromHome, ...a.productUrlsFromSitemap]);
  const misses = (a.productMisses ?? []).filter((m) => m.resource.ok && productLinks.has(m.resource.res.requestedUrl));
  const products = [...a.pdps, ...misses].flatMap((p) => (p.resource.ok ? [p.resource.res.url] : [])).filter((u) => u !== home);
  return [{ url: home, kind: 'home' }, ...[...new Set(products)].slice(0, RENDERED_PRODUCT_PAGES).map((url) => ({ url, kind: 'product' as const }))];
}

export function notRun(note: string): BrowserView {
  return { status: 'not_run', note, counted_in_score: false, pages: [], findings: [], requests: emptyRequests(), screenshot: null, duration_ms: 0 };
}

export function failed(note: string, ms: number): BrowserView {
  return { ...notRun(note), status: 'failed', duration_ms: Math.max(0, Math.round(ms)) };
}

const emptyRequests = (): BrowserView['requests'] => ({ made: 0, refused: 0, refused_examples: [], budget_spent: null });

/** Renders the targets and reads them; a browser that cannot be used is a 'failed' view, never a failed scan. */
export async function browserView(
  a: Artifacts,
  renderer: PageRenderer | undefined,
  request: Omit<RenderRequest, 'pages' | 'screenshotUrl'>,
  read: BodyReader,
): Promise<BrowserView> {
  if (!renderer) return notRun('Not run: this instance has no browser (Chromium), so only what crawlers see was checked.');
  const pages = renderTargets(a);
  const started = Date.now();
  let run: RenderRun;
  try {
    run = await renderer.render({ ...request, pages, screenshotUrl: pages.find((p) => p.kind === 'product')?.url ?? pages[0].url });
  } catch (err) {
    return failed(`The browser could not be used for this scan (${(err as Error).message.slice(0, 120)}).`, Date.now() - started);
  }
  return readRun(a, run, renderer.label, read);
}

/** Turns a render into the report's view: each page compared with its raw answer, then the findings. */
export async function readRun(a: Artifacts, run: RenderRun, label: string, read: BodyReader): Promise<BrowserView> {
  // Rendered pages are read like fetched ones (scan/parser-threads/page-work.ts), on the parser threads when the scan has them.
  const reads = await Promise.all(run.pages.map((p) => (p.html ? read({ kind: 'page', html: p.html, url: p.finalUrl ?? p.url, opts: { status: p.status ?? 200 }, recognise: true }) : null)));
  const pages = run.pages.map((p, i) => pageView(a, p, reads[i]));
  const findings = pages.flatMap((p, i) => pageFindings(p, run.pages[i]));
  if (run.refusedCount > 0) {
    findings.push({
      id: 'requests_refused',
      page_url: null,
      title: 'The pages ask for addresses a public visitor cannot reach',
      detail: `${run.refusedCount} request(s) refused by the address rules, e.g. ${run.refused.slice(0, 3).map((r) => `${r.url} (${r.why})`).join('; ')}`,
      fix: 'Remove references to private, local or internal addresses (and to other ports or schemes) from public pages: browser agents cannot load them, and they leak internal names.',
    });
  }
  return {
    status: 'rendered',
    note: `Rendered in ${label} with scripts on, through the scanner's address rules; reported beside the score, not counted in it.`,
    counted_in_score: false,
    pages,
    findings,
    requests: { made: run.requests, refused: run.refusedCount, refused_examples: run.refused.slice(0, 10), budget_spent: run.budgetSpent },
    screenshot: run.screenshot ? { url: run.screenshot.url, data_url: run.screenshot.dataUrl } : null,
    screenshot_note: run.screenshotNote,
    duration_ms: Math.max(0, Math.round(run.ms)),
  };
}

function pageView(a: Artifacts, p: RenderedPage, rendered: PageRead | null): RenderedPageView {
  const raw = rawAnswer(a, p.url);
  const renderedRes: HttpResponse | null = p.html ? { ...(raw.res ?? blankResponse(p.url)), status: p.status ?? 200, headers: {}, body: p.html } : null;
  const marker = renderedRes && !challengeMarker(raw.res) ? challengeMarker(renderedRes, raw.res) : null;
  const blocked = !marker && p.status !== null && p.status >= 400 && raw.res !== null && raw.res.status < 400 ? `HTTP ${p.status} where a plain request got ${raw.res.status}` : null;
  return {
    url: p.url,
    kind: p.kind,
    outcome: p.outcome,
    detail: p.detail,
    http_status: p.status,
    challenge: marker ?? blocked,
    crawlers_see: seen(raw.page, raw.product, false),
    browser_agents_see: rendered ? seen(rendered.page, rendered.product, p.buyControls.length > 0) : { name: false, price: false, buy_button: false },
    page_type: pageType(rendered),
    buy_controls: p.buyControls.map((c) => ({ role: c.role, name: c.name, enabled: c.enabled, covered_by: c.coveredBy, recognised_by: c.reason })),
    overlay: p.overlay,
    webmcp_tools: p.webmcpTools,
    popups_blocked: p.popupsBlocked,
    dialogs_dismissed: p.dialogsDismissed,
    ms: Math.max(0, Math.round(p.ms)),
  };
}

/**
 * What a rendered page holds, whatever its address: several products (distinct Product entities, an ItemList, many
 * prices) is a listing; one product page as the scanner recognises one (its markup, or name, price and buy signals)
 * is a product page.
 */
function pageType(read: PageRead | null): RenderedPageView['page_type'] {
  if (!read) return 'other';
  const entities = read.page.entities;
  const products = entities.filter((e) => e.types.includes('Product'));
  const names = new Set(products.map((e) => String(e.props.name?.[0] ?? '')));
  const grouped = entities.some((e) => e.types.includes('ProductGroup')); // a group's variants are Products too
  if (entities.some((e) => e.types.includes('ItemList')) || (!grouped && names.size >= 2)) return 'listing';
  if (read.recognition?.isProduct) return 'product';
  return new Set(visiblePrices(read.page.visibleText.slice(0, 300_000))).size >= 3 ? 'listing' : 'other';
}

function rawAnswer(a: Artifacts, url: string): { res: HttpResponse | null; page: PageFacts | null; product: ProductFacts | null } {
  if (a.home.ok && a.home.res.url === url) return { res: a.home.res, page: a.homePage, product: null };
  const pdp = a.pdps.find((p) => p.resource.ok && p.resource.res.url === url);
  if (pdp) return { res: pdp.resource.res ?? null, page: pdp.page, product: pdp.product };
  const miss = (a.productMisses ?? []).find((p) => p.resource.ok && p.resource.res.url === url);
  return { res: miss?.resource.res ?? null, page: miss?.page ?? null, product: null };
}

function blankResponse(url: string): HttpResponse {
  return { requestedUrl: url, url, status: 200, headers: {}, contentType: 'text/html', body: '', ms: 0, redirects: [] };
}

/** The product_server_rendered reading of a page (name and price in the visible text), plus a buy control. */
function seen(page: PageFacts | null, product: ProductFacts | null, buyControlFound: boolean): RenderedPageView['crawlers_see'] {
  if (!page) return { name: false, price: false, buy_button: buyControlFound };
  const text = normText(page.visibleText.slice(0, 300_000));
  const name = nameIndex(text, [product?.name?.value]) !== null;
  const price = product?.price?.value;
  const priceSeen =
    typeof price === 'number' && price > 0 ? [...visiblePrices(page.visibleText)].some((v) => samePrice(v, price)) : priceMentions(page.visibleText.slice(0, 300_000)).length > 0;
  const buy = buyControlFound || page.buttons.some((b) => BUY_WORDS.test(b)) || page.forms.some((f) => f.buttons.some((b) => BUY_WORDS.test(b)));
  return { name, price: priceSeen, buy_button: buy };
}

function pageFindings(p: RenderedPageView, rendered: RenderedPage): BrowserFinding[] {
  const out: BrowserFinding[] = [];
  const at = p.url;
  if (p.outcome === 'timeout') {
    out.push({ id: 'page_unresponsive', page_url: at, title: 'The page did not settle within the render budget', detail: p.detail ?? 'timed out', fix: 'Make the page finish loading: a script kept it busy or it kept loading past the budget, and browser agents give up on pages that never settle.' });
  }
  if (p.outcome === 'crashed') {
    out.push({ id: 'page_crashed', page_url: at, title: 'The page crashed the browser tab', detail: p.detail ?? 'the tab crashed', fix: 'Keep the page\'s memory and DOM bounded: a tab that runs out of memory is lost to a browser agent.' });
  }
  if (rendered.domBytes > MAX_READ_DOM) {
    out.push({ id: 'dom_oversized', page_url: at, title: 'The rendered page is too large to read whole', detail: `The DOM after scripts ran is ${Math.round(rendered.domBytes / 1024 / 1024)} MiB; agents read about the first ${MAX_READ_DOM / 1024 / 1024} MiB.`, fix: 'Keep the rendered page small: load long lists in pages or on demand, so the product facts sit in the first part of the page an agent reads.' });
  }
  if (p.popups_blocked > 0) {
    out.push({ id: 'popups', page_url: at, title: 'The page opens windows on its own', detail: `${p.popups_blocked} window(s) the page tried to open were closed`, fix: 'Do not open windows or tabs without a click: browser agents lose their place, and pop-ups read as abuse.' });
  }
  if (p.challenge) {
    out.push({ id: 'browser_challenge', page_url: at, title: 'A browser agent gets a challenge where a plain request does not', detail: p.challenge, fix: 'Let verified browser agents through: exempt signed agent requests (Web Bot Auth) and well-behaved headless browsers from the challenge, or challenge on abuse signals rather than on the browser being headless.' });
  }
  const product = p.page_type === 'product' && rendered.outcome === 'rendered';
  if (p.overlay) {
    out.push({ id: 'overlay_covers_page', page_url: at, title: 'A layer covers most of the page after load', detail: p.overlay, fix: 'Let the page be read and used while a notice is open: show cookie and newsletter notices as a banner at the edge of the page, not as a layer over it, and open no modal on load.' });
  }
  if (product && p.buy_controls.length === 0 && rendered.buyControlsAllRead) {
    out.push({
      id: 'buy_control_missing',
      page_url: at,
      title: 'No buy control on a product page',
      detail: `After scripts ran the page shows a product${p.browser_agents_see.price ? ' with a price' : ''}, but no add-to-cart or buy control was found: none by its words or label, a cart-like class, a cart form, a cart or bag icon, or a button beside the price.`,
      fix: 'Show a visible button named "Add to cart" (or "Buy now") next to the price on every product page that can be bought, as a button or a form that posts to the cart: a browser agent looks for it there, by its name.',
    });
  }
  if (product) {
    const c = p.crawlers_see;
    const b = p.browser_agents_see;
    const onlyAfter = (['name', 'price', 'buy_button'] as const).filter((k) => b[k] && !c[k]);
    if (onlyAfter.includes('price') || onlyAfter.includes('name')) {
      out.push({
        id: 'script_only_product',
        page_url: at,
        title: 'Product details appear only after scripts run',
        detail: `Only after scripts ran: ${onlyAfter.map((k) => k.replace('_', ' ')).join(', ')}. Crawlers and retrieval fetchers see none of it.`,
        fix: 'Server-render the product name, price, availability and the add-to-cart form into the HTML: crawlers and retrieval fetchers (GPTBot, OAI-SearchBot, ClaudeBot, PerplexityBot) do not run scripts.',
      });
    }
  }
  const unnamed = p.buy_controls.filter((c) => c.name.trim() === '');
  if (unnamed.length > 0) {
    out.push({ id: 'buy_control_unnamed', page_url: at, title: 'A buy control has no accessible name', detail: `${unnamed.length} buy control(s) with role ${unnamed.map((c) => c.role ?? 'none').join(', ')} and no name in the accessibility tree`, fix: 'Give the button an accessible name: visible text such as "Add to cart", or an aria-label on an icon-only button. Browser agents act through the accessibility tree and cannot tell an unnamed icon from any other.' });
  }
  const covered = p.buy_controls.find((c) => c.covered_by !== null);
  if (covered) {
    out.push({ id: 'buy_control_covered', page_url: at, title: 'Something covers the buy control after load', detail: `Over "${covered.name || covered.role || 'the buy control'}": ${covered.covered_by}`, fix: 'Let agents reach the buy button: show the cookie notice as a banner that leaves the page usable, and open no modal over the product on load.' });
  }
  return out;
}
