// GET /index (alias /stores): the public readiness index, ranked by latest score, 50 stores a page, filterable
// by vertical, as HTML or (Accept: text/markdown) Markdown. The store leaves delisted hosts out; each row links
// to the host's latest report.
import type { RequestHandler } from 'express';
import { VERTICALS } from '../schemas/params.js';
import type { Config } from '../lib/config.js';
import type { RankRow, Repository } from '../db/repo.js';
import { AGENT_READY_RULE, agentReadyVerified } from '../tools/readiness.js';
import { PRODUCT_NAME, formatDate, gradePill, html, layout, messagePage, sendPage, verticalLabel, type SafeHtml } from './html.js';
import { mdText, negotiatedHeaders, sendMarkdown, wantsMarkdown } from './markdown.js';

export const PAGE_SIZE = 50;

const isVertical = (v: string): boolean => (VERTICALS as readonly string[]).includes(v);

function indexHref(vertical: string | null, page = 1): string {
  const params = new URLSearchParams();
  if (vertical) params.set('vertical', vertical);
  if (page > 1) params.set('page', String(page));
  const q = params.toString();
  return q ? `/index?${q}` : '/index';
}

function filterChips(current: string | null): SafeHtml {
  const chip = (v: string | null, label: string) =>
    v === current
      ? html`<li><span class="chip chip-active" aria-current="true">${label}</span></li>`
      : html`<li><a class="chip chip-link" href="${indexHref(v)}">${label}</a></li>`;
  return html`<nav aria-label="Filter by category"><ul class="chips filter">${chip(null, 'All stores')}${VERTICALS.map((v) => chip(v, verticalLabel(v)))}</ul></nav>`;
}

function badRequest(heading: string, body: SafeHtml): SafeHtml {
  return messagePage({ title: 'Bad request', heading, body, nav: 'index' });
}


interface IndexView {
  vertical: string | null;
  page: number;
  pages: number;
  total: number;
  rows: RankRow[];
}

/** The index as Markdown: the same ranking, filter and pages as the HTML, with absolute links. */
export function renderIndexMarkdown(v: IndexView, baseUrl: string, now: Date): string {
  const scope = v.vertical ? verticalLabel(v.vertical) : null;
  const link = (vertical: string | null, page = 1) => `${baseUrl}${indexHref(vertical, page)}`;
  const pager = [
    v.page > 1 ? `[Previous page](${link(v.vertical, Math.min(v.page - 1, v.pages))})` : '',
    `Page ${v.page} of ${v.pages}`,
    v.page < v.pages ? `[Next page](${link(v.vertical, v.page + 1)})` : '',
  ].filter(Boolean);
  return [
    `# ${scope ? `${scope}: the most agent-ready stores` : 'The most agent-ready stores'}`,
    '',
    `> The ${PRODUCT_NAME} readiness index: every scanned store ranked by its latest score, ${v.total === 1 ? '1 store' : `${v.total} stores`}${scope ? ` in ${scope}` : ''}. Agent-ready means ${AGENT_READY_RULE}.`,
    '',
    ...(v.rows.length === 0
      ? [v.total === 0 ? 'No store has been scanned here yet.' : `There is no page ${v.page}: the index has ${v.pages} ${v.pages === 1 ? 'page' : 'pages'}.`]
      : [
          '| Rank | Store | Score | Grade | Agent-ready | Category | Scanned |',
          '|---|---|---|---|---|---|---|',
          ...v.rows.map(
            (r) =>
              `| ${r.rank} | [${mdText(r.host, 253)}](${baseUrl}/r/${r.scanId}) | ${r.score}${r.capped ? ' (capped)' : ''} | ${mdText(r.grade, 1)} | ${agentReadyVerified(r, now) ? 'yes' : 'no'} | ${r.vertical ? mdText(verticalLabel(r.vertical), 60) : '–'} | ${new Date(r.updatedAt).toISOString().slice(0, 10)} |`,
          ),
        ]),
    '',
    pager.join(' · '),
    '',
    `Categories: ${[`[All stores](${link(null)})`, ...VERTICALS.map((c) => `[${verticalLabel(c)}](${link(c)})`)].join(', ')}.`,
    '',
  ].join('\n');
}

export function indexPage(deps: { db: Repository; config: Config }): RequestHandler {
  const base = deps.config.BASE_URL;
  return async (req, res) => {
    const markdown = wantsMarkdown(req);
    const rawVertical = req.query.vertical;
    const rawPage = req.query.page;
    let vertical: string | null = null;
    if (rawVertical !== undefined && rawVertical !== '') {
      if (typeof rawVertical !== 'string' || !isVertical(rawVertical)) {
        if (markdown) return badMarkdown(res, `Unknown category. The category filter must be one of: ${VERTICALS.join(', ')}.`);
        sendPage(
          res,
          badRequest(
            'Unknown category',
            html`<p>The category filter must be one of: ${VERTICALS.join(', ')}.</p>${filterChips(null)}`,
          ),
          { status: 400, headers: { Vary: 'Accept' } },
        );
        return;
      }
      vertical = rawVertical;
    }
    let page = 1;
    if (rawPage !== undefined && rawPage !== '') {
      if (typeof rawPage !== 'string' || !/^[1-9][0-9]{0,6}$/.test(rawPage)) {
        if (markdown) return badMarkdown(res, 'Unknown page. The page must be a whole number from 1 up.');
        sendPage(
          res,
          badRequest('Unknown page', html`<p>The page must be a whole number from 1 up. <a href="${indexHref(vertical)}">Go to the first page</a>.</p>`),
          { status: 400, headers: { Vary: 'Accept' } },
        );
        return;
      }
      page = Number(rawPage);
    }

    const [total, rows] = await Promise.all([
      deps.db.countStores(vertical),
      deps.db.topStores({ vertical, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    ]);
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const now = new Date();
    const scope = vertical ? verticalLabel(vertical) : null;
    const self = indexHref(vertical, page);
    if (markdown) {
      sendMarkdown(res, renderIndexMarkdown({ vertical, page, pages, total, rows }, base, now), {
        cacheControl: 'public, max-age=60',
        headers: negotiatedHeaders(base, self, 'text/markdown'),
      });
      return;
    }

    const body = html`
<section class="card">
  <p class="eyebrow">Readiness index</p>
  <h1>${scope ? html`${scope}: the most agent-ready stores` : 'The most agent-ready stores'}</h1>
  <p class="lead">Every scanned store, ranked by its latest score. ${total === 1 ? '1 store' : `${total} stores`}${scope ? html` in ${scope}` : ''}. A store tagged <span class="tag tag-verified">agent-ready</span> meets the agent-ready rule: ${AGENT_READY_RULE}.</p>
  ${filterChips(vertical)}
  ${rows.length === 0
    ? html`<p class="empty">${total === 0
        ? html`No store has been scanned${scope ? html` in ${scope}` : ''} yet. <a href="/">Scan yours</a> to open the ranking.`
        : html`There is no page ${page}: the index has ${pages} ${pages === 1 ? 'page' : 'pages'}. <a href="${indexHref(vertical)}">Go to the first page</a>.`}</p>`
    : html`<div class="table-wrap"><table class="ranking index-table">
    <thead><tr><th scope="col">Rank</th><th scope="col">Store</th><th scope="col" class="num">Score</th><th scope="col" class="hide-narrow">Category</th><th scope="col" class="hide-narrow">Scanned</th></tr></thead>
    <tbody>${rows.map(
      (row) => html`<tr>
        <td>#${row.rank}</td>
        <td><a href="/r/${row.scanId}">${row.host}</a>${agentReadyVerified(row, now) ? html` <span class="tag tag-verified" title="Meets the agent-ready rule">agent-ready</span>` : ''}${row.capped ? html` <span class="tag tag-block">capped</span>` : ''}</td>
        <td class="num">${row.score} ${gradePill(row.grade)}</td>
        <td class="hide-narrow">${row.vertical ? verticalLabel(row.vertical) : html`<span class="muted">–</span>`}</td>
        <td class="hide-narrow">${formatDate(new Date(row.updatedAt))}</td>
      </tr>`,
    )}</tbody>
  </table></div>`}
  ${pages > 1 || page > 1
    ? html`<nav class="pager" aria-label="Pages">
    ${page > 1 ? html`<a class="button button-quiet" rel="prev" href="${indexHref(vertical, Math.min(page - 1, pages))}">← Previous</a>` : html`<span></span>`}
    <span class="muted">Page ${page} of ${pages}</span>
    ${page < pages ? html`<a class="button button-quiet" rel="next" href="${indexHref(vertical, page + 1)}">Next →</a>` : html`<span></span>`}
  </nav>`
    : ''}
</section>`;

    sendPage(
      res,
      layout(
        {
          title: `${scope ? `${scope}: ` : ''}Readiness index${page > 1 ? ` (page ${page})` : ''} · ${PRODUCT_NAME}`,
          description: 'Stores ranked by how well AI shopping agents can find, understand and buy from them.',
          alternates: [{ type: 'text/markdown', href: self }],
          nav: 'index',
        },
        body,
      ),
      { cacheControl: 'public, max-age=60', headers: negotiatedHeaders(base, self, 'text/html') },
    );
  };
}

function badMarkdown(res: Parameters<RequestHandler>[1], message: string): void {
  sendMarkdown(res, `# Bad request\n\n${message}\n`, { status: 400, headers: { Vary: 'Accept' } });
}
