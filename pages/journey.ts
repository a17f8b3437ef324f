// "Can an agent buy here?" on the report page and in its Markdown: the journey's steps as a strip, the picture of
// where it ended, the blocker in one sentence with its fix, where the checkout is, what the store's catalog answered
// and the accessibility rules broken on the way. Reported beside the score, never in it. A stored journey is read back
// through its schema; every string in it came from the store and is escaped by `html` or mdText.
import { Journey, type JourneyStep } from '../schemas/journey.js';
import { BLOCKERS, STEP_LABELS } from '../scan/journey/blockers.js';
import { JPEG_DATA_URL } from './browser-view.js';
import { fixPlainAndSteps } from './fix.js';
import { externalLink, html, type SafeHtml } from './html.js';
import { mdText } from './markdown.js';
import { inlineCode } from '../lib/untrusted-markdown.js';

const MARKS: Record<JourneyStep['status'], { icon: string; css: string; text: string }> = {
  passed: { icon: '✓', css: 'status-pass', text: 'passed' },
  failed: { icon: '✕', css: 'status-fail', text: 'failed' },
  skipped: { icon: '–', css: 'status-unknown', text: 'skipped' },
};

/** The stored journey, or what to say instead: absent (an older scan) or unreadable. */
function readJourney(stored: unknown): Journey | 'absent' | 'unreadable' {
  if (stored === undefined || stored === null) return 'absent';
  const parsed = Journey.safeParse(stored);
  return parsed.success ? parsed.data : 'unreadable';
}

const ABSENT = 'This scan was made before the buying journey existed: scan again to see it.';
const UNREADABLE = 'The buying journey of this scan could not be read.';

/** One line: did it reach the checkout, and if not, where it stopped. */
export function journeyVerdict(j: Journey): string {
  if (j.outcome === 'reached_checkout' && j.checkout) {
    const where = j.checkout.same_site ? j.checkout.host : `${j.checkout.host}, another site than the store's`;
    const guest = j.checkout.guest === true ? '; no account needed' : j.checkout.guest === false ? '; sign-in offered, no guest path named' : '';
    return `Yes: an agent reached the checkout (${where}${guest}).`;
  }
  if (j.outcome === 'stopped') {
    const failed = j.steps.find((s) => s.status === 'failed' && s.step !== 'search');
    return `Not yet: the journey stopped at "${STEP_LABELS[failed?.step ?? 'open_product']}". ${j.blocker ? BLOCKERS[j.blocker].sentence : ''}`.trim();
  }
  return j.note;
}

export function journeySection(stored: unknown): SafeHtml {
  const j = readJourney(stored);
  return html`<section class="card" aria-labelledby="journey-h">
  <h2 id="journey-h">Can an agent buy here?</h2>
  ${j === 'absent' ? html`<p class="muted">${ABSENT}</p>` : j === 'unreadable' ? html`<p class="muted">${UNREADABLE}</p>` : body(j)}
</section>`;
}

function body(j: Journey): SafeHtml {
  if (j.outcome === 'not_run') return html`<p class="muted">${j.note}</p>${protocol(j)}`;
  const fix = j.blocker ? BLOCKERS[j.blocker].fix : null;
  return html`<p class="muted">We walked ${j.product ? html`${j.product.name ? html`“${j.product.name}”` : 'a product'} (${externalLink(j.product.url)})` : 'the store'} to its checkout the way a browser agent does: search, product page, add to cart, cart, checkout. ${j.note}</p>
  <p class="journey-verdict"><strong>${journeyVerdict(j)}</strong></p>
  ${fix ? html`<div class="journey-fix"><h3 class="sub-h">How to fix it</h3>${fixPlainAndSteps(fix)}</div>` : ''}
  <ol class="journey-strip" aria-label="The journey's steps">${j.steps.map((s) => {
    const mark = MARKS[s.status];
    return html`<li class="status ${mark.css}"><span aria-hidden="true">${mark.icon}</span> ${STEP_LABELS[s.step]}<span class="visually-hidden">: ${mark.text}</span></li>`;
  })}</ol>
  <details class="journey-steps"><summary>What the journey did, step by step</summary><ol>${j.steps.map(
    (s) => html`<li><strong>${STEP_LABELS[s.step]}</strong> (${MARKS[s.status].text}${s.ms > 0 ? `, ${(s.ms / 1000).toFixed(1)} s` : ''}): ${s.detail}${s.url && s.status !== 'skipped' ? html`<div class="product-url">${externalLink(s.url)}</div>` : ''}</li>`,
  )}</ol></details>
  ${shot(j)}
  ${j.checkout ? html`<p>The checkout: ${externalLink(j.checkout.url)} — ${j.checkout.signals.join(', ')}.</p>` : ''}
  ${protocol(j)}
  ${accessibility(j)}
  ${j.requests_refused > 0 ? html`<p class="muted small">${j.requests_refused} request(s) the pages sent were refused: after the checkout was reached, or because they would have ordered, paid or sent personal data.</p>` : ''}`;
}

function shot(j: Journey): SafeHtml {
  if (!j.screenshot || !JPEG_DATA_URL.test(j.screenshot.data_url)) return html``;
  return html`<figure class="browser-shot journey-shot">
    <img src="${j.screenshot.data_url}" alt="The page where the journey ended: ${STEP_LABELS[j.screenshot.step]}" width="640" height="400" loading="lazy">
    <figcaption class="muted small">Where the journey ended (${STEP_LABELS[j.screenshot.step]}), as the browser saw it.</figcaption>
  </figure>`;
}

function protocol(j: Journey): SafeHtml {
  const p = j.protocol;
  if (!p) return html``;
  const verdict = p.price_matches === true ? 'the same price as the page' : p.price_matches === false ? 'another price than the page' : p.found ? 'found' : 'not found';
  return html`<p><strong>The store's own catalog</strong> (${p.via === 'mcp' ? 'MCP' : 'UCP'}${p.tool ? html`, <code>${p.tool}</code>` : ''}): ${verdict}. <span class="muted small">${p.detail}</span></p>`;
}

function accessibility(j: Journey): SafeHtml {
  const pages = j.accessibility.filter((a) => a.violations.length > 0);
  if (j.accessibility.length === 0) return html``;
  if (pages.length === 0) return html`<p class="muted small">The accessibility tree agents read was well formed on the way (the agent rules of axe-core, as Lighthouse's Agentic Browsing runs them).</p>`;
  return html`<h3 class="sub-h">What agents could not name on the way</h3>
  <p class="muted small">The axe-core rules Lighthouse's Agentic Browsing category fails a page on, run on the pages of the journey.</p>
  <ul class="check-list">${pages.map(
    (a) => html`<li>${STEP_LABELS[a.step]} (${externalLink(a.url)}):<ul>${a.violations.map(
      (v) => html`<li><code>${v.rule}</code>${v.impact ? ` (${v.impact})` : ''}: ${v.help} — ${v.nodes} element(s)${v.targets.length > 0 ? html`, e.g. ${v.targets.map((t, i) => html`${i > 0 ? ', ' : ''}<code>${t}</code>`)}` : ''}</li>`,
    )}</ul></li>`,
  )}</ul>`;
}

/** The same journey as Markdown lines, for the report's Markdown and the MCP report resource. */
export function journeyMarkdown(stored: unknown): string[] {
  const j = readJourney(stored);
  const head = ['## Can an agent buy here?', ''];
  if (j === 'absent') return [];
  if (j === 'unreadable') return [...head, UNREADABLE, ''];
  const lines = [...head, `> ${mdText(j.note, 400)}`, '', mdText(journeyVerdict(j), 400), ''];
  if (j.outcome === 'not_run') return [...lines, ...protocolMarkdown(j)];
  const fix = j.blocker ? BLOCKERS[j.blocker].fix : null;
  return [
    ...lines,
    ...(fix ? [`Fix (${fix.effort}): ${fix.plain}`, ''] : []),
    '| Step | Result | What happened |',
    '|---|---|---|',
    ...j.steps.map((s) => `| ${STEP_LABELS[s.step]} | ${MARKS[s.status].text} | ${mdText(s.detail, 400)} |`),
    '',
    ...(j.checkout ? [`Checkout: ${mdText(j.checkout.url, 300)} (${j.checkout.same_site ? 'on the store\'s site' : 'another site'}; ${mdText(j.checkout.signals.join(', '), 300)})`, ''] : []),
    ...protocolMarkdown(j),
    ...j.accessibility.flatMap((a) =>
      a.violations.length === 0 ? [] : [`Accessibility on the ${STEP_LABELS[a.step].toLowerCase()} (${mdText(a.url, 200)}): ${a.violations.map((v) => `${inlineCode(v.rule, 40)} ×${v.nodes}`).join(', ')}`, ''],
    ),
    ...(j.requests_refused > 0 ? [`Requests refused on the way: ${j.requests_refused}.`, ''] : []),
  ];
}

function protocolMarkdown(j: Journey): string[] {
  const p = j.protocol;
  if (!p) return [];
  return [`Catalog (${p.via}${p.tool ? `, ${inlineCode(p.tool, 60)}` : ''}): found ${p.found ? 'yes' : 'no'}, price matches ${p.price_matches === null ? 'unknown' : p.price_matches ? 'yes' : 'no'}. ${mdText(p.detail, 400)}`, ''];
}
