// "What browser agents see" on the report page and in its Markdown: each rendered page beside what crawlers saw,
// the buy controls as the accessibility tree names them, WebMCP tools, the findings with their fixes and a
// screenshot. Reported beside the score, never in it. Every string here came from the store: escaped by `html`
// or mdText like the rest of the report, and the screenshot is shown only as a base64 JPEG data: URL.
import type { BrowserView } from '../schemas/browser-view.js';
import { externalLink, html, type SafeHtml } from './html.js';
import { mdText } from './markdown.js';

type Page = BrowserView['pages'][number];
type Seen = Page['crawlers_see'];

const JPEG_DATA_URL = /^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/;
const SEEN_ROWS: { key: keyof Seen; label: string }[] = [
  { key: 'name', label: 'Product name' },
  { key: 'price', label: 'Price' },
  { key: 'buy_button', label: 'Buy button' },
];

export function browserViewSection(view: BrowserView | undefined): SafeHtml {
  return html`<section class="card" aria-labelledby="browser-h">
  <h2 id="browser-h">What browser agents see</h2>
  ${view ? sectionBody(view) : html`<p class="muted">This scan was made before the browser view existed: scan again to see it.</p>`}
</section>`;
}

function sectionBody(view: BrowserView): SafeHtml {
  if (view.status !== 'rendered') return html`<p class="muted">${view.note}</p>`;
  const pages = Array.isArray(view.pages) ? view.pages : [];
  const findings = Array.isArray(view.findings) ? view.findings : [];
  return html`<p class="muted">Agents that shop in a real browser (ChatGPT agent, Comet, Gemini in Chrome) run scripts and act through the accessibility tree; crawlers read the raw HTML. ${view.note}</p>
  ${findings.length === 0
    ? html`<p>${noFindings(pages)}</p>`
    : html`<ul class="check-list">${findings.map(
        (f) => html`<li><strong>${f.title}</strong>${f.page_url ? html` (${externalLink(f.page_url)})` : ''}<br><span class="muted small">${f.detail}</span><br>Fix: ${f.fix}</li>`,
      )}</ul>`}
  <div class="table-wrap"><table class="products">
    <thead><tr><th scope="col">Page</th><th scope="col">Crawlers see</th><th scope="col">Browser agents see</th><th scope="col">Buy controls</th><th scope="col">WebMCP tools</th></tr></thead>
    <tbody>${pages.map(
      (p) => html`<tr>
        <td data-label="Page"><div>${pageLabel(p)}<div class="product-url">${externalLink(p.url)}</div>${p.outcome === 'rendered' ? '' : html`<div class="missing">${p.outcome}: ${p.detail ?? ''}</div>`}${p.challenge ? html`<div class="missing">Challenge: ${p.challenge}</div>` : ''}${p.overlay ? html`<div class="missing">Covered by ${p.overlay}</div>` : ''}</div></td>
        <td data-label="Crawlers see"><div>${seenList(p.crawlers_see)}</div></td>
        <td data-label="Browser agents see"><div>${seenList(p.browser_agents_see)}</div></td>
        <td data-label="Buy controls"><div>${controls(p)}</div></td>
        <td data-label="WebMCP tools"><div>${(p.webmcp_tools ?? []).length === 0 ? html`<span class="muted">none</span>` : html`${p.webmcp_tools.map((t) => html`<div><code>${t.name}</code> <span class="muted small">${t.description}</span></div>`)}`}</div></td>
      </tr>`,
    )}</tbody>
  </table></div>
  ${screenshot(view.screenshot)}${view.screenshot_note ? html`<p class="muted small">${view.screenshot_note}</p>` : ''}`;
}

const TYPE_LABELS: Record<string, string> = { product: 'Product page', listing: 'Listing page', other: 'Page' };

/** What the page holds after scripts ran (not what its address looks like); reports made before say why it was opened. */
function pageLabel(p: Page): string {
  const type = p.page_type ? TYPE_LABELS[p.page_type] : p.kind === 'home' ? 'Home page' : 'Product page';
  return p.page_type && p.kind === 'home' ? `${type ?? 'Page'} (the address scanned)` : (type ?? 'Page');
}

/**
 * Said only when no finding stands and every page was rendered; the buy button is called named and reachable only
 * when a product page showed one that is.
 */
function noFindings(pages: Page[]): string {
  if (pages.some((p) => p.outcome !== 'rendered')) return 'No browser findings on the pages that could be rendered.';
  const buyable = pages.some((p) => (p.buy_controls ?? []).some((c) => c.name.trim() !== '' && c.covered_by === null && c.enabled));
  return `Nothing to fix: browser agents can read the pages${buyable ? ', and the buy button is named and reachable' : ''}.`;
}

const REASON_LABELS: Record<string, string> = { words: 'its words', hint: 'a cart-like class', cart_form: 'a cart form', icon: 'a cart icon', near_price: 'its place by the price' };

function seenList(seen: Seen | undefined): SafeHtml {
  return html`${SEEN_ROWS.map(({ key, label }) => html`<div>${seen?.[key] ? '✓' : '✕'} ${label}</div>`)}`;
}

function controls(p: Page): SafeHtml {
  const list = Array.isArray(p.buy_controls) ? p.buy_controls : [];
  if (list.length === 0) return html`<span class="muted">none found</span>`;
  return html`${list.map(
    (c) => html`<div>${c.role ?? 'not in the tree'} ${c.name ? html`“${c.name}”` : html`<span class="missing">no name</span>`}${c.enabled ? '' : ' (disabled)'}${c.recognised_by && c.recognised_by !== 'words' ? html` <span class="muted small">found by ${REASON_LABELS[c.recognised_by] ?? c.recognised_by}</span>` : ''}${c.covered_by ? html`<div class="missing">covered by ${c.covered_by}</div>` : ''}</div>`,
  )}`;
}

function screenshot(shot: BrowserView['screenshot']): SafeHtml {
  if (!shot || typeof shot.data_url !== 'string' || !JPEG_DATA_URL.test(shot.data_url)) return html``;
  return html`<figure class="browser-shot">
    <img src="${shot.data_url}" alt="The page as headless Chromium rendered it" width="640" height="400" loading="lazy">
    <figcaption class="muted small">${externalLink(shot.url)}, as a browser agent sees it after load.</figcaption>
  </figure>`;
}

/** The same view as Markdown lines for the report's Markdown and MCP resource. */
export function browserViewMarkdown(view: BrowserView | undefined): string[] {
  if (!view) return [];
  const head = ['## What browser agents see', '', `> ${mdText(view.note, 300)}`, ''];
  if (view.status !== 'rendered') return head;
  const findings = Array.isArray(view.findings) ? view.findings : [];
  const yes = (b: boolean | undefined) => (b ? 'yes' : 'no');
  return [
    ...head,
    ...(findings.length === 0
      ? ['No browser findings.', '']
      : [...findings.map((f) => `- **${mdText(f.title, 200)}** (\`${f.id}\`${f.page_url ? `, ${mdText(f.page_url, 300)}` : ''}): ${mdText(f.detail, 400)} Fix: ${mdText(f.fix, 400)}`), '']),
    '| Page | Crawlers: name / price / buy | Browser agents: name / price / buy | Buy controls | WebMCP tools |',
    '|---|---|---|---|---|',
    ...(Array.isArray(view.pages) ? view.pages : []).map((p) => {
      const c = p.crawlers_see;
      const b = p.browser_agents_see;
      const buy = (p.buy_controls ?? []).map((x) => `${mdText(x.role ?? 'none', 20)} "${mdText(x.name, 60)}"${x.covered_by ? ' (covered)' : ''}`).join(', ') || 'none';
      const tools = (p.webmcp_tools ?? []).map((t) => mdText(t.name, 60)).join(', ') || 'none';
      return `| ${mdText(p.url, 200)} (${p.outcome}) | ${yes(c?.name)} / ${yes(c?.price)} / ${yes(c?.buy_button)} | ${yes(b?.name)} / ${yes(b?.price)} / ${yes(b?.buy_button)} | ${buy} | ${tools} |`;
    }),
    '',
  ];
}
