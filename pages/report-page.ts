// GET /r/{scan_id}: the shareable report as server-rendered HTML that needs no JavaScript, or as Markdown for
// `Accept: text/markdown`. Every string that came from a store (host, URLs, product facts, evidence) is escaped
// (the `html` tag, or mdText), and store URLs become links only when they are http(s) (docs/security.md O1, "Output
// safety"). Unknown, malformed or delisted ids: 404.
import type { Request, Response } from 'express';
import type { Config } from '../lib/config.js';
import type { Repository } from '../db/repo.js';
import type { ScanResult } from '../schemas/scan-result.js';
import { isHostName } from '../lib/hosts.js';
import {
  PRODUCT_NAME,
  bar,
  externalLink,
  formatTime,
  gradeClass,
  gradeMeaning,
  gradePill,
  html,
  inlineMarkdown,
  layout,
  messagePage,
  ratioClass,
  renderHowTo,
  sendPage,
  verticalLabel,
  type SafeHtml,
} from './html.js';
import { mdText, negotiatedHeaders, oneLine, sendMarkdown, wantsMarkdown } from './markdown.js';
import { changesSection, historySection, loadReportExtras, newerScanNotice, statusSection, type ReportExtras } from './report-history.js';
import { badgeFor } from './badge.js';
import { CARD } from './share-card.js';
import { merchantFix } from './fix.js';
import { CHECKS } from '../scan/checks/registry.js';
import { CAP_SCORE, type CheckId } from '../scan/checks/rubric.js';
import { browserViewMarkdown, browserViewSection } from './browser-view.js';
import { journeyMarkdown, journeySection } from './journey.js';
import { readableReport } from '../tools/stored-report.js';
import { agentsMarkdown, agentsSection } from './agents-matrix.js';
import { availabilityBasisPhrase, isGuessedAvailability } from '../scan/products/availability-basis.js';

type Report = ScanResult;
type Check = Report['pillars'][number]['checks'][number];
type Product = Report['products'][number];
type Neighbor = Report['neighbors'][number];
type RootCause = NonNullable<Report['root_causes']>[number];

/** docs/checks.md §5: the hard blocks, in the merchant's words, and the check whose fix lifts the cap. */
const CAP_REASONS: Record<string, { title: string; text: string; check: CheckId }> = {
  H1: {
    title: 'robots.txt blocks the live AI shopping agents',
    text: 'Your robots.txt disallows every live shopping agent (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User), so ChatGPT, Claude and Perplexity cannot open your pages when a shopper asks them to.',
    check: 'access_live_agents_robots',
  },
  H2: {
    title: 'Your bot protection blocks AI agents',
    text: 'Your firewall or bot protection answered a request from an AI-agent user-agent with a block or a challenge, while an ordinary visitor got the store. Agents give up at a challenge page.',
    check: 'access_no_bot_wall',
  },
  H3: {
    title: 'The storefront is closed to automated visitors',
    text: 'The home page answered with a password page, a login wall or a challenge, so no agent can see the store at all.',
    check: 'access_storefront_reachable',
  },
};

const STATUS: Record<string, { icon: string; text: string }> = {
  pass: { icon: '✓', text: 'Pass' },
  partial: { icon: '◐', text: 'Partial' },
  fail: { icon: '✕', text: 'Fail' },
};

const PROTOCOL_FLAGS: { key: keyof Report['protocols']; label: string }[] = [
  { key: 'ucp', label: 'UCP profile' },
  { key: 'acp', label: 'ACP profile' },
  { key: 'mcp', label: 'Storefront MCP' },
  { key: 'mcp_server_card', label: 'MCP server card' },
  { key: 'llms_txt', label: 'llms.txt' },
  { key: 'markdown_negotiation', label: 'Markdown for agents' },
  { key: 'api_catalog', label: 'API catalog' },
  { key: 'content_signals', label: 'Content signals' },
  { key: 'a2a', label: 'A2A agent card' },
  { key: 'ap2', label: 'AP2 mandates' },
  { key: 'x402', label: 'x402 payments' },
];

/** Check ids are ours, but they end up in id= and in fragment links: keep them to a safe alphabet anyway. */
const anchor = (prefix: string, id: unknown): string => `${prefix}-${String(id ?? '').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 80)}`;

const statusOf = (status: unknown) => STATUS[String(status)] ?? { icon: '?', text: String(status ?? 'unknown') };
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export interface ReportPageOptions {
  baseUrl: string;
  /** The neighbors to show (the stored window, minus hosts delisted since). */
  neighbors: Neighbor[];
  /** Certification status, changes since the previous scan and the store's other scans. */
  extras?: ReportExtras;
}

export function renderReportPage(report: Report, opts: ReportPageOptions): SafeHtml {
  const { baseUrl } = opts;
  const host = String(report.host ?? '');
  const score = Math.round(num(report.score));
  const grade = String(report.grade ?? '?');
  const id = Number(report.scan_id);
  const pageUrl = `${baseUrl}/r/${id}`;
  const badgeable = isHostName(host);
  const fixes = Array.isArray(report.top_fixes) ? report.top_fixes : [];
  const pillars = Array.isArray(report.pillars) ? report.pillars : [];

  const ogTitle = `${host} scores ${score}/100 (${grade}) for AI-agent readiness`;
  const capInfo = report.capped ? CAP_REASONS[String(report.cap_reason)] : undefined;
  const ogDescription = report.capped
    ? `Capped: ${capInfo?.title ?? 'AI agents are blocked outright'}. ${fixes.length} fixes to become agent-ready.`
    : `${gradeMeaning(grade)}${fixes[0] ? ` Top fix: ${fixes[0].title} (+${fixes[0].points} points).` : ''}`;

  const body = html`
<section class="card hero ${gradeClass(grade)}" aria-labelledby="report-host">
  <div class="hero-text">
    <p class="eyebrow">AI-agent readiness report</p>
    <h1 id="report-host" class="host">${host}</h1>
    <p class="meta">
      <span>Scanned ${formatTime(report.scanned_at)}</span>
      <span>${externalLink(report.url)}</span>
      ${report.vertical ? html`<span>Category: ${verticalLabel(String(report.vertical))}</span>` : ''}
      <span title="Every scan of every store gets its own number">Report ID ${id}</span>
    </p>
    <p class="verdict"><strong>Grade ${grade}.</strong> ${gradeMeaning(grade)}</p>
    <p class="actions">
      <a class="button" href="${rescanHref(report)}">Re-scan this store</a>
      <a class="button button-quiet" href="/api/v1/scan/${id}.json">JSON</a>
      <a class="button button-quiet" href="/console/brief/${id}">Agent brief (Pro)</a>
      <a class="button button-quiet" href="/compare?hosts=${encodeURIComponent(host)}">Compare with…</a>
    </p>
  </div>
  ${gauge(score, grade)}
</section>

${report.address_note ? html`<p class="banner banner-newer" role="note">${report.address_note}</p>` : ''}
${opts.extras ? newerScanNotice(opts.extras, id, report.scanned_at) : ''}
${report.public_entry === false ? notPublicBanner(report) : ''}
${rootCauseSection(report, capInfo)}
${report.capped && !leadsWithCap(report, capInfo) ? cappedBanner(report, capInfo) : ''}
${opts.extras ? statusSection(opts.extras, id) : ''}
${opts.extras ? changesSection(opts.extras) : ''}

<section class="card" aria-labelledby="pillars-h">
  <h2 id="pillars-h">Score by pillar</h2>
  <ul class="pillar-list">
    ${pillars.map(
      (p) => html`<li>
      <a class="pillar-row" href="/r/${id}#${anchor('pillar', p.id)}">
        <span class="pillar-label">${p.label}</span>
        <span class="pillar-score"><strong>${num(p.score)}</strong> / ${num(p.max)}</span>
      </a>
      ${bar(num(p.score), num(p.max), ratioClass(num(p.score), num(p.max)), `${p.label}: ${num(p.score)} of ${num(p.max)} points`)}
    </li>`,
    )}
  </ul>
  ${report.capped
    ? html`<p class="muted small cap-note">The pillars add up to ${pillars.reduce((sum, p) => sum + num(p.score), 0)} points; the cap holds the score at ${score} until agents can get in.</p>`
    : ''}
</section>

${fixesSection(report, fixes)}

<section class="card" aria-labelledby="checks-h">
  <h2 id="checks-h">Every check</h2>
  ${checkSummary(pillars)}
  ${pillars.map(
    (p) => html`<section class="pillar-checks" id="${anchor('pillar', p.id)}" aria-label="${p.label}">
    <h3><span>${p.label}</span> <span class="pillar-score">${num(p.score)} / ${num(p.max)} points</span></h3>
    <ul class="check-list">${problemsFirst(assessed(p.checks)).map(checkItem)}${notAssessedItems(report, p.checks)}</ul>
  </section>`,
  )}
</section>

<section class="card" aria-labelledby="seen-h">
  <h2 id="seen-h">What agents see</h2>
  <p class="muted">The product facts an AI agent could read from the product pages we sampled. The grey tag after each fact names the markup it came from (html: the page body, with how stock was found).</p>
  ${productsTable(Array.isArray(report.products) ? report.products : [])}
  ${report.protocols ? protocolList(report.protocols) : ''}
</section>

${browserViewSection(report.browser_view)}

${journeySection(report.journey)}
${agentsSection(report.agents)}

<div class="grid grid-2">
  <section class="card" aria-labelledby="rank-h">
    <h2 id="rank-h">In the readiness index</h2>
    ${rankLine(report)}
    ${neighborsTable(opts.neighbors, host, report.rank?.scope ?? null)}
    <p><a href="/index">See the whole index</a></p>
  </section>
  <section class="card" aria-labelledby="badge-h">
    <h2 id="badge-h">Badge</h2>
    ${badgeable ? badgeSection(baseUrl, host, thisScanBadge(report, opts.extras)) : html`<p class="muted">No badge: this host name cannot carry one.</p>`}
  </section>
</div>

${opts.extras ? historySection(opts.extras, id) : ''}

<section class="card data-links" aria-labelledby="data-h">
  <h2 id="data-h">Take it further</h2>
  <ul>
    <li><a href="/api/v1/scan/${id}.json">This report as JSON</a>: the same data for your tools and CI; <a href="/r/${id}.csv">every check as CSV</a> for a spreadsheet, and <a href="/history/${encodeURIComponent(host)}.csv">the store's score history as CSV</a>.</li>
    <li><a href="/compare?hosts=${encodeURIComponent(host)}">Compare ${host} with other stores</a> of the index, check by check.</li>
    <li>Print this page, or save it as PDF from the print dialog: it is laid out for paper, without the navigation.</li>
    <li><a href="/api/v1/scan/${id}/brief.md">Agent brief</a> (needs a Pro API key, sent as <code>Authorization: Bearer &lt;key&gt;</code>; see <a href="/auth.md">how to get one</a>): sequenced how-tos and paste-ready markup to hand to your developer or coding agent.</li>
    <li><a href="${rescanHref(report)}">Re-scan</a> after you ship fixes; the badge and the index follow the latest scan.</li>
  </ul>
  <p class="muted small">Rubric ${String(report.rubric_version ?? '')}. Scans read public pages only, as crawlers do (raw HTML, no scripts; the score) and as browser agents do (a headless browser with scripts on; the browser view, not scored), never a login, a cart or a checkout. <a href="/bot">What the scanner fetches</a>.</p>
</section>`;

  return layout(
    {
      title: `${host}: ${score}/100 (${grade}) · ${PRODUCT_NAME}`,
      description: ogTitle,
      og: { title: ogTitle, description: ogDescription, url: pageUrl, card: { png: `${pageUrl}/card.png`, ...CARD, alt: `${host}: ${score}/100, grade ${grade}` } },
      canonical: pageUrl,
      alternates: [
        { type: 'application/json', href: `/api/v1/scan/${id}.json` },
        { type: 'text/markdown', href: `/r/${id}` },
      ],
    },
    body,
  );
}

/**
 * The report as compact Markdown for agents: score, grade, cap, pillars, the checks that need work with their
 * evidence, and the fixes with their points. Store text (host, URL, evidence) goes through mdText.
 */
export function renderReportMarkdown(report: Report, baseUrl: string): string {
  const host = mdText(report.host, 253);
  const score = Math.round(num(report.score));
  const grade = mdText(report.grade ?? '?', 1);
  const id = Number(report.scan_id);
  const pillars = Array.isArray(report.pillars) ? report.pillars : [];
  const fixes = Array.isArray(report.top_fixes) ? report.top_fixes : [];
  const checks = pillars.flatMap((p) => (Array.isArray(p.checks) ? p.checks : []));
  const count = (s: string) => checks.filter((c) => c.status === s && !blocked(c)).length;
  const waiting = checks.filter(blocked).length;
  const capInfo = report.capped ? CAP_REASONS[String(report.cap_reason)] : undefined;
  const toFix = pillars
    .map((p) => ({ p, list: problemsFirst(Array.isArray(p.checks) ? p.checks : []).filter((c) => c.status !== 'pass') }))
    .filter(({ list }) => list.length > 0);
  return [
    `# ${host}: ${score}/100, grade ${grade}`,
    '',
    `> AI-agent readiness report by ${PRODUCT_NAME}. ${gradeMeaning(report.grade)}`,
    '',
    `- Store: ${mdText(report.url, 300)}`,
    `- Scanned: ${mdText(report.scanned_at, 40)} (scan ${id}, rubric ${mdText(report.rubric_version, 40)})`,
    `- Score: ${score}/100, grade ${grade}`,
    report.capped
      ? `- Capped at ${CAP_SCORE}: ${capInfo?.title ?? 'AI agents are blocked outright'}. Fix \`${capInfo?.check ?? 'the blocking check'}\` first; the other fixes only count once agents can reach the store.`
      : '- Capped: no',
    `- Checks: ${count('pass')} passed, ${count('partial')} partial, ${count('fail')} failed${waiting > 0 ? `, ${waiting} not assessed` : ''}`,
    ...(report.public_entry === false
      ? ["- Not the store's public score: this scan looked at a page other than the store's entry point; the index, badge and verification follow scans of the site root only."]
      : []),
    `- JSON: ${baseUrl}/api/v1/scan/${id}.json · agent brief (Pro key): ${baseUrl}/api/v1/scan/${id}/brief.md`,
    '',
    ...rootCauses(report).flatMap((c) => [
      `## Start here: ${mdText(c.title, 200)}`,
      '',
      `${mdText(c.detail, 600)}`,
      '',
      `Until this is fixed, ${c.blocks.length} checks are not assessed (${c.blocks.map((id) => `\`${mdText(id, 80)}\``).join(', ')}). Fix \`${mdText(c.check_id, 80)}\` first: it unlocks up to +${num(c.points)} points.`,
      '',
    ]),
    '## Pillars',
    '',
    '| Pillar | Score |',
    '|---|---|',
    ...pillars.map((p) => `| ${mdText(p.label, 60)} | ${num(p.score)} / ${num(p.max)} |`),
    '',
    '## Checks that need work',
    '',
    ...(toFix.length === 0
      ? ['None: every check passed.', '']
      : toFix.flatMap(({ p, list }) => [
          `### ${mdText(p.label, 60)}`,
          '',
          ...list.map(
            (c) =>
              `- **${blocked(c) ? 'Not assessed' : statusOf(c.status).text}** ${mdText(checkName(c), 200)} (\`${mdText(c.id, 80)}\`, ${num(c.points)}/${num(c.max)}${c.hard_block && c.status === 'fail' ? ', caps the score' : ''}): ${blocked(c) || !c.title ? '' : `${mdText(c.title, 200)}. Seen: `}${mdText(c.evidence, 400) || 'no evidence recorded'}`,
          ),
          '',
        ])),
    '## Fixes, biggest wins first',
    '',
    ...(fixes.length === 0
      ? ['Nothing left to fix.']
      : fixes.map((f, i) => `${i + 1}. **+${num(f.points)} pts** ${mdText(f.title, 200)} (\`${mdText(f.check_id, 80)}\`): ${oneLine(String(f.how ?? ''))}`)),
    '',
    ...browserViewMarkdown(report.browser_view),
    ...journeyMarkdown(report.journey),
    ...agentsMarkdown(report.agents),
  ].join('\n');
}

function rescanHref(report: Report): string {
  const params = new URLSearchParams({ url: String(report.url ?? `https://${report.host}`) });
  if (report.vertical) params.set('vertical', String(report.vertical));
  return `/?${params.toString()}`;
}

function gauge(score: number, grade: string): SafeHtml {
  const value = Math.max(0, Math.min(100, score));
  return html`<div class="gauge-box" role="img" aria-label="Score ${value} out of 100, grade ${grade}">
    <svg class="gauge" viewBox="0 0 120 120" aria-hidden="true">
      <circle class="gauge-track" cx="60" cy="60" r="52" pathLength="100"/>
      ${value > 0 ? html`<circle class="gauge-value" cx="60" cy="60" r="52" pathLength="100" stroke-dasharray="${value} 100" transform="rotate(-90 60 60)"/>` : ''}
    </svg>
    <div class="gauge-center" aria-hidden="true">
      <span class="score-number" data-testid="score">${value}</span>
      <span class="score-max">/ 100</span>
    </div>
    <div class="gauge-grade" aria-hidden="true">${gradePill(grade, 'grade-pill-xl')}<span class="grade-caption">Grade</span></div>
  </div>`;
}

/** A scan of a page other than the store's entry point: shown, but not the store's public score. */
function notPublicBanner(report: Report): SafeHtml {
  const entry = (() => {
    try {
      return new URL('/', String(report.url)).href;
    } catch {
      return '';
    }
  })();
  return html`<section class="banner" role="note" aria-labelledby="entry-h">
  <span class="banner-icon" aria-hidden="true">i</span>
  <div>
    <h2 id="entry-h">Not the store's public score</h2>
    <p>This scan looked at ${externalLink(report.url)}, not the store's entry point. It is kept here for whoever ran it, but the readiness index, badge and verification follow scans of ${entry ? externalLink(entry) : 'the site root'} only.</p>
  </div>
</section>`;
}

function cappedBanner(report: Report, info: (typeof CAP_REASONS)[string] | undefined): SafeHtml {
  return html`<section class="banner banner-capped" role="alert" aria-labelledby="cap-h">
  <span class="banner-icon" aria-hidden="true">!</span>
  <div>
    <h2 id="cap-h">Score capped at ${CAP_SCORE}: ${info?.title ?? 'AI agents are blocked outright'}</h2>
    <p>${info?.text ?? 'A hard block keeps AI shopping agents out of the store.'}</p>
    <p>While this lasts the store cannot score above ${CAP_SCORE} (grade E), whatever else it does well. Fix this first: the other fixes only count once agents can reach the store.${info ? html` <a href="/r/${Number(report.scan_id)}#${anchor('check', info.check)}">See the failing check</a>.` : ''}</p>
  </div>
</section>`;
}

/** The root cause's fix carries the cap when its check is the one that caps the score: then it is the one banner. */
function leadsWithCap(report: Report, capInfo: (typeof CAP_REASONS)[string] | undefined): boolean {
  return rootCauses(report).some((c) => c.check_id === capInfo?.check);
}

const rootCauses = (report: Report): RootCause[] => (Array.isArray(report.root_causes) ? report.root_causes : []);
const blocked = (c: Check) => typeof c.blocked_by === 'string';
const assessed = (checks: Check[] | undefined): Check[] => (Array.isArray(checks) ? checks : []).filter((c) => !blocked(c));

/**
 * "Start here": the one failure that makes others moot, before anything else: what the scanner saw, what it blocks,
 * the points its fix unlocks, and the fix itself.
 */
function rootCauseSection(report: Report, capInfo: (typeof CAP_REASONS)[string] | undefined): SafeHtml {
  const checks = (report.pillars ?? []).flatMap((p) => (Array.isArray(p.checks) ? p.checks : []));
  const labelOf = (id: string) => String(checks.find((c) => c.id === id)?.label ?? id);
  return html`${rootCauses(report).map((cause) => {
    const check = CHECKS.find((c) => c.id === cause.check_id);
    const fix = (report.top_fixes ?? []).find((f) => f.check_id === cause.check_id);
    const capsScore = report.capped && capInfo?.check === cause.check_id;
    return html`<section class="banner banner-capped root-cause" role="alert" aria-labelledby="${anchor('root', cause.id)}" id="${anchor('cause', cause.id)}">
  <span class="banner-icon" aria-hidden="true">!</span>
  <div>
    <p class="eyebrow">Start here</p>
    <h2 id="${anchor('root', cause.id)}">${cause.title}</h2>
    ${cause.detail ? html`<p class="evidence"><span class="evidence-label">Seen:</span> ${cause.detail}</p>` : ''}
    <p>Until this is fixed, ${cause.blocks.length} ${cause.blocks.length === 1 ? 'check' : 'checks'} cannot be assessed: ${cause.blocks.map(labelOf).join(', ')}. Fixing it unlocks up to <strong>+${num(cause.points)} points</strong>.${capsScore ? ` It also caps the score at ${CAP_SCORE} (grade E) while it lasts.` : ''}</p>
    ${check ? html`<div class="root-fix"><p class="fix-title"><strong>Fix: ${check.failureTitle}</strong></p>${merchantFix(check, String(fix?.how ?? check.how), anchor('root-fix', cause.id), { copy: false })}</div>` : ''}
  </div>
</section>`;
  })}`;
}

const EFFORT_RANK: Record<string, number> = { 'a few minutes': 0, 'about an hour': 1, 'a day or more': 2 };
const effortOf = (fix: Report['top_fixes'][number]): string | undefined => fix.effort ?? CHECKS.find((c) => c.id === fix.check_id)?.fix?.effort;
const QUICK_WINS = 3;

/**
 * The fixes after the root cause: quick wins first (a few minutes each, most points first), then the biggest wins.
 * The root cause's own fix is the "Start here" banner, so it is not repeated here.
 */
function fixesSection(report: Report, fixes: Report['top_fixes']): SafeHtml {
  const roots = new Set(rootCauses(report).map((c) => c.check_id));
  const rest = fixes.filter((f) => !roots.has(f.check_id));
  const quick = rest.filter((f) => EFFORT_RANK[effortOf(f) ?? ''] === 0).slice(0, QUICK_WINS);
  const biggest = rest.filter((f) => !quick.includes(f));
  const list = (items: typeof fixes, start = 1) => html`<ol class="fix-list"${start > 1 ? html` start="${start}"` : ''}>${items.map(fixItem)}</ol>`;
  const body =
    rest.length === 0
      ? html`<p class="muted">${fixes.length === 0 ? 'Nothing left to fix: every check passed.' : 'Nothing else to fix: start with the finding above.'}</p>`
      : html`${quick.length > 0
          ? html`<h3 class="sub-h" id="quick-wins">Quick wins</h3><p class="muted">A few minutes each, most points first.</p>${list(quick)}`
          : ''}
  <h3 class="sub-h" id="biggest-wins">${quick.length > 0 ? 'Then the biggest wins' : 'Biggest wins first'}</h3>
  <p class="muted">Each fix shows the points it brings back.</p>
  ${list(biggest.slice(0, 5))}
  ${biggest.length > 5
    ? html`<details class="more-fixes"><summary>Show ${biggest.length - 5} more ${biggest.length - 5 === 1 ? 'fix' : 'fixes'}</summary>${list(biggest.slice(5), 6)}</details>`
    : ''}`;
  return html`<section class="card" aria-labelledby="fixes-h">
  <h2 id="fixes-h">${roots.size > 0 ? 'Other fixes' : 'Top fixes'}</h2>
  ${body}
</section>`;
}

/** A pillar's checks that a root cause made moot, as one line that names them and links to the cause. */
function notAssessedItems(report: Report, checks: Check[] | undefined): SafeHtml {
  const list = (Array.isArray(checks) ? checks : []).filter(blocked);
  const byCause = rootCauses(report).map((cause) => ({ cause, list: list.filter((c) => c.blocked_by === cause.id) })).filter((g) => g.list.length > 0);
  return html`${byCause.map(
    ({ cause, list: mine }) => html`<li class="check status-unknown not-assessed">
    <span class="status status-unknown"><span aria-hidden="true">–</span> Not assessed</span>
    <div class="check-body">
      <div class="check-head"><strong class="check-title">${mine.length} ${mine.length === 1 ? 'check waits' : 'checks wait'} for: <a href="#${anchor('cause', cause.id)}">${cause.title}</a></strong><span class="check-points">0 / ${mine.reduce((sum, c) => sum + num(c.max), 0)}</span></div>
      <p class="check-label">${mine.map((c, i) => html`${i > 0 ? ', ' : ''}<span id="${anchor('check', c.id)}">${c.label}</span>`)}</p>
    </div>
  </li>`,
  )}`;
}

function fixItem(fix: Report['top_fixes'][number]): SafeHtml {
  const check = CHECKS.find((c) => c.id === fix.check_id);
  return html`<li class="fix" id="${anchor('fix', fix.check_id)}">
    <div class="fix-head"><span class="points-chip">+${num(fix.points)} pts</span><strong class="fix-title">${fix.title}</strong></div>
    ${check
      ? merchantFix(check, String(fix.how ?? ''), anchor('fix', fix.check_id), { copy: false })
      : html`<div class="how">${renderHowTo(String(fix.how ?? ''))}</div>`}
  </li>`;
}

const STATUS_ORDER: Record<string, number> = { fail: 0, partial: 1, pass: 2 };

/** Within a pillar, what needs work comes first; the order among equals is the rubric's. */
function problemsFirst(checks: Check[]): Check[] {
  return checks
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (STATUS_ORDER[a.c.status] ?? 0) - (STATUS_ORDER[b.c.status] ?? 0) || a.i - b.i)
    .map(({ c }) => c);
}

function checkSummary(pillars: Report['pillars']): SafeHtml {
  const all = pillars.flatMap((p) => (Array.isArray(p.checks) ? p.checks : []));
  const count = (s: string) => all.filter((c) => c.status === s && !blocked(c)).length;
  const waiting = all.filter(blocked).length;
  return html`<p class="legend">
    <span class="status status-pass"><span aria-hidden="true">✓</span> ${count('pass')} passed</span>
    <span class="status status-partial"><span aria-hidden="true">◐</span> ${count('partial')} partial</span>
    <span class="status status-fail"><span aria-hidden="true">✕</span> ${count('fail')} failed</span>
    ${waiting > 0 ? html`<span class="status status-unknown"><span aria-hidden="true">–</span> ${waiting} not assessed</span>` : ''}
    <span class="muted">In each pillar, the checks that need work come first.</span>
  </p>`;
}

/** A check's one name: its declared label (a stored report of an older release may carry another), else the stored one. */
const checkName = (check: Check): string => String(CHECKS.find((c) => c.id === check.id)?.label || check.label || check.id);

/**
 * A check is named by its label everywhere (this list, /checks, its page, the Markdown, the command line); what the
 * scan found follows it: the passing statement, or the fix for a check that needs work.
 */
function checkItem(check: Check): SafeHtml {
  const s = statusOf(check.status);
  const statusKey = STATUS[String(check.status)] ? String(check.status) : 'unknown';
  const declared = CHECKS.find((c) => c.id === check.id);
  const name = checkName(check);
  const finding = String(check.title || '');
  const why = declared ? inlineMarkdown(declared.why) : String(check.why ?? '');
  const blocking = check.hard_block && statusKey === 'fail';
  const evidence = check.evidence ? html`<p class="evidence"><span class="evidence-label">Seen:</span> ${check.evidence}</p>` : '';
  const head = html`<div class="check-head">
        <strong class="check-title">${name}</strong>
        <span class="check-points">${num(check.points)} / ${num(check.max)}</span>
      </div>`;
  const body =
    statusKey === 'pass'
      ? html`${head}
      ${finding ? html`<p class="check-label">${finding}</p>` : ''}
      <details class="why"><summary>Details</summary>${evidence}${why ? html`<p>${why}</p>` : ''}</details>`
      : html`${head}
      ${finding || blocking ? html`<p class="check-label">${finding ? html`Fix: ${finding}` : ''}${blocking ? html` <span class="tag tag-block">blocks agents · caps the score</span>` : ''}</p>` : ''}
      ${evidence}
      ${why ? html`<details class="why"><summary>Why agents care</summary><p>${why}</p></details>` : ''}`;
  return html`<li class="check status-${statusKey}" id="${anchor('check', check.id)}">
    <span class="status status-${statusKey}"><span aria-hidden="true">${s.icon}</span> ${s.text}</span>
    <div class="check-body">
      ${body}
      ${declared ? html`<a class="small check-more" href="/checks/${check.id}">About this check</a>` : ''}
    </div>
  </li>`;
}

function fact(f: { value: unknown; source: unknown } | null | undefined, show: (v: unknown) => string = String): SafeHtml {
  if (!f || f.value === null || f.value === undefined || f.value === '') return html`<span class="missing">not found</span>`;
  return html`<span class="fact-value">${show(f.value)}</span> <span class="src">${String(f.source ?? '')}</span>`;
}

const shortAvailability = (v: unknown): string => String(v).replace(/^https?:\/\/schema\.org\//i, '');

/** Availability with where it came from; a guess from a buy button or a price says so, as the page states no stock. */
function availabilityFact(p: Product): SafeHtml {
  const basis = p.availability?.source === 'html' ? p.availability_basis : undefined;
  if (!basis) return fact(p.availability, shortAvailability);
  return html`${fact(p.availability, shortAvailability)} <span class="${isGuessedAvailability(basis) ? 'missing' : 'src'}">${availabilityBasisPhrase(basis)}</span>`;
}

function price(p: Product): SafeHtml {
  if (!p.price || p.price.value === null || p.price.value === undefined) {
    // Prices that disagree with nothing to decide between them: the report says why none was read.
    if (p.price_not_read) return html`<span class="missing">not read</span> <span class="src">${p.price_not_read}</span>`;
    return html`<span class="missing">not found</span>`;
  }
  const amount = Number(p.price.value);
  const currency = p.currency?.value ? String(p.currency.value) : '';
  let text = `${p.price.value}${currency ? ` ${currency}` : ''}`;
  if (Number.isFinite(amount) && /^[A-Z]{3}$/.test(currency)) {
    try {
      text = new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
    } catch {
      /* an unknown code: keep "12.5 XYZ" */
    }
  }
  // A zero price reads to an agent as free; an amount with no currency is one an agent cannot quote.
  const free = amount === 0 ? html` <span class="missing">read as free</span>` : '';
  return html`<span class="fact-value">${text}</span> <span class="src">${String(p.price.source ?? '')}</span>${free}${currency ? '' : html` <span class="missing">currency unknown</span>`}`;
}

const IDENTIFIER_KIND: Record<string, string> = { gtin: 'GTIN', mpn: 'MPN', sku: 'SKU', asin: 'ASIN', retailer_code: 'Store code', model: 'Model' };

/** Every identifier the page gives (kind, value, source); reports stored before the list show the single facts. */
function identifiers(p: Product): SafeHtml {
  const listed = (p.identifiers ?? []).map((i) => ({ kind: IDENTIFIER_KIND[i.kind] ?? i.kind, value: i.value, source: i.source.replace('_', ' ') }));
  const ids =
    listed.length > 0
      ? listed
      : (['gtin', 'mpn', 'sku'] as const).flatMap((k) => (p[k]?.value ? [{ kind: k.toUpperCase(), value: String(p[k]?.value), source: String(p[k]?.source ?? '') }] : []));
  if (ids.length === 0) return html`<span class="missing">not found</span>`;
  return html`${ids.map(
    (i) => html`<span class="ident"><span class="ident-kind">${i.kind}</span> <span class="fact-value">${i.value}</span> <span class="src">${i.source}</span></span>`,
  )}`;
}

function productsTable(products: Product[]): SafeHtml {
  if (products.length === 0) {
    return html`<p class="empty">No product page was found, so agents could not read a single product. See the Discovery and Product data fixes above.</p>`;
  }
  return html`<div class="table-wrap"><table class="products">
    <thead><tr><th scope="col">Product</th><th scope="col">Price</th><th scope="col">Availability</th><th scope="col">Brand</th><th scope="col">Identifiers</th></tr></thead>
    <tbody>${products.map(
      (p) => html`<tr>
        <td data-label="Product"><div><div class="product-name">${fact(p.name)}</div><div class="product-url">${externalLink(p.url)}</div><div class="product-markup">Product markup: <span class="src">${String(p.markup ?? 'none')}</span></div></div></td>
        <td data-label="Price"><div>${price(p)}</div></td>
        <td data-label="Availability"><div>${availabilityFact(p)}</div></td>
        <td data-label="Brand"><div>${fact(p.brand)}</div></td>
        <td data-label="Identifiers"><div>${identifiers(p)}</div></td>
      </tr>`,
    )}</tbody>
  </table></div>`;
}

function protocolList(protocols: Report['protocols']): SafeHtml {
  return html`<h3 class="sub-h">Agent protocols</h3>
  <ul class="chips">${PROTOCOL_FLAGS.map(({ key, label }) => {
    const v = protocols[key];
    const state = v === true ? 'yes' : v === false ? 'no' : 'unknown';
    const word = v === true ? 'found' : v === false ? 'not found' : 'not checked';
    return html`<li class="chip chip-${state}"><span aria-hidden="true">${v === true ? '✓' : v === false ? '✕' : '–'}</span> ${label} <span class="chip-state">${word}</span></li>`;
  })}</ul>
  <p class="muted small">Structured data: ${String(protocols.structured_data ?? 'none')} · Platform: ${String(protocols.platform ?? 'other')}${
    Array.isArray(protocols.agents_blocked) && protocols.agents_blocked.length
      ? html` · Blocked in robots.txt: ${protocols.agents_blocked.join(', ')}`
      : ''
  }</p>`;
}

/** The rank with its scope: "#1 of 1 in Home & garden", and the whole index's beside it. */
function rankLine(report: Report): SafeHtml {
  const rank = report.rank;
  if (!rank) return html``;
  const overall = html`<strong>#${num(rank.overall.position)}</strong> of ${num(rank.overall.of)} in the whole index`;
  return html`<p class="rank-line" data-testid="rank">${rank.scope
    ? html`<strong>#${num(rank.position)}</strong> of ${num(rank.of)} in ${verticalLabel(String(rank.scope))} · ${overall}`
    : overall}</p>`;
}

function neighborsTable(neighbors: Neighbor[], host: string, scope: string | null): SafeHtml {
  if (neighbors.length === 0) return html`<p class="muted">Not ranked yet.</p>`;
  const where = scope ? ` in ${verticalLabel(scope)}` : '';
  return html`<p class="muted">Where ${host} ranked among scanned stores${where} when this scan ran.</p>
  <table class="ranking">
    <thead><tr><th scope="col">Rank${where}</th><th scope="col">Store</th><th scope="col" class="num">Score</th></tr></thead>
    <tbody>${neighbors.map(
      (n) => html`<tr${n.is_self ? html` class="self"` : ''}>
        <td>#${num(n.rank)}</td>
        <td>${n.is_self ? html`<strong>${n.host}</strong> <span class="tag">this store</span>` : isHostName(n.host) ? html`<a href="/verify/${n.host}">${n.host}</a>` : n.host}</td>
        <td class="num">${num(n.score)} ${gradePill(n.grade)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

/**
 * On a report that is not the store's latest, the badge card shows this scan's own numbers (drawn here, as a data:
 * image) rather than the live badge, which follows the latest scan; null on the latest report.
 */
function thisScanBadge(report: Report, extras: ReportExtras | undefined): string | null {
  const latest = extras?.status.latest;
  if (!latest || latest.scanId === Number(report.scan_id)) return null;
  const own = extras?.history.find((h) => h.id === Number(report.scan_id));
  const svg = badgeFor({ score: Math.round(num(report.score)), grade: String(report.grade), agentReady: own?.agentReady === true }).svg;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

function badgeSection(baseUrl: string, host: string, ownBadge: string | null): SafeHtml {
  const img = `${baseUrl}/badge/${host}.svg`;
  const target = `${baseUrl}/verify/${host}`;
  const markdown = `[![Agent-ready score for ${host}](${img})](${target})`;
  const htmlSnippet = `<a href="${target}"><img src="${img}" alt="Agent-ready score for ${host}"></a>`;
  const preview = ownBadge
    ? html`<p class="badge-preview"><img src="${ownBadge}" alt="This scan's badge for ${host}" height="20" data-testid="scan-badge"></p>
    <p class="muted">This scan’s numbers. The badge on your site always shows the latest scan and links to its report:</p>
    <p class="badge-preview"><img src="/badge/${host}.svg" alt="The live badge for ${host}" height="20"></p>`
    : html`<p class="badge-preview"><img src="/badge/${host}.svg" alt="Agent readiness badge for ${host}" height="20"></p>
    <p class="muted">Show shoppers and agents how ready your store is. The badge always shows the latest scan and links to its report.</p>`;
  return html`${preview}
    <p class="snippet-label">Markdown</p>
    <pre class="snippet"><code>${markdown}</code></pre>
    <p class="snippet-label">HTML</p>
    <pre class="snippet"><code>${htmlSnippet}</code></pre>`;
}

/** The route: integer ids only; the stored report as it was answered; hosts delisted since are not shown. */
export function reportPage(deps: { config: Config; db: Repository }) {
  const base = deps.config.BASE_URL;
  return async (req: Request, res: Response) => {
    const markdown = wantsMarkdown(req);
    const rawId = req.params.scan_id;
    const id = typeof rawId === 'string' && /^[1-9][0-9]{0,15}$/.test(rawId) ? Number(rawId) : NaN;
    const scan = Number.isSafeInteger(id) ? await deps.db.getScan(id) : null;
    if (!scan || (await deps.db.isDelisted(scan.host))) {
      if (markdown) {
        sendMarkdown(res, NOT_FOUND_MARKDOWN, { status: 404, headers: { Vary: 'Accept' } });
        return;
      }
      sendPage(res, notFoundPage(), { status: 404, headers: { Vary: 'Accept' } });
      return;
    }
    const report = { ...readableReport(scan.report), scan_id: scan.id };
    const self = `/r/${scan.id}`;
    if (markdown) {
      sendMarkdown(res, renderReportMarkdown(report, base), { cacheControl: 'public, max-age=300', headers: negotiatedHeaders(base, self, 'text/markdown') });
      return;
    }
    const stored = Array.isArray(report.neighbors) ? report.neighbors : [];
    const others = stored.filter((n) => !n.is_self).map((n) => String(n.host));
    const [listed, extras] = await Promise.all([
      others.length ? deps.db.latestByHosts(others) : new Map(),
      loadReportExtras(deps.db, scan),
    ]);
    const neighbors = stored.filter((n) => n.is_self || listed.has(String(n.host)));
    sendPage(res, renderReportPage(report, { baseUrl: base, neighbors, extras }), {
      cacheControl: 'public, max-age=300',
      headers: negotiatedHeaders(base, self, 'text/html'),
    });
  };
}

const NOT_FOUND_MARKDOWN =
  '# Report not found\n\nThe link may be mistyped, or the store\'s owner asked us to remove it from the public index.\n';

export function notFoundPage(): SafeHtml {
  return messagePage({
    title: 'Report not found',
    heading: 'We could not find that report',
    body: html`<p>The link may be mistyped, or the store's owner asked us to remove it from the public index.</p>
<p><a class="button" href="/">Scan a store</a> <a class="button button-quiet" href="/index">Browse the readiness index</a></p>`,
  });
}
