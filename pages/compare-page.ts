// GET /compare?hosts=a,b,c: 2 to 5 stores of the readiness index side by side (score, grade, pillars, every check),
// with the checks on which they differ marked in words and colour, from the compare_stores tool through
// tools/invoke.ts like every other surface. With fewer than two hosts it is a form; a bad list is a 400 page with
// the form and what was wrong. `&only=differences` keeps the differing checks alone. Every answer carries the form,
// so every answer's policy lets it submit to this site.
import type { RequestHandler } from 'express';
import { AppError } from '../lib/errors.js';
import { invoke } from '../tools/invoke.js';
import { compareStores, hostList } from '../tools/compare-stores.js';
import { MAX_COMPARED, MIN_COMPARED, type StoreComparison } from '../schemas/comparison.js';
import { requestContext } from '../http/request-context.js';
import type { SurfaceDeps } from '../http/guards.js';
import { formatTime, gradeClass, gradePill, html, layout, sendPage, type SafeHtml } from './html.js';

type Store = StoreComparison['stores'][number];
type Check = StoreComparison['checks'][number];

const STATUS: Record<string, { icon: string; text: string }> = {
  pass: { icon: '✓', text: 'Pass' },
  partial: { icon: '◐', text: 'Partial' },
  fail: { icon: '✕', text: 'Fail' },
};

const compareHref = (hosts: string[], onlyDifferences = false): string =>
  `/compare?${new URLSearchParams({ hosts: hosts.join(','), ...(onlyDifferences ? { only: 'differences' } : {}) }).toString()}`;

function form(value: string, error?: string): SafeHtml {
  return html`<form class="card compare-form" method="get" action="/compare" role="search">
  <label for="compare-hosts">Stores to compare (${MIN_COMPARED} to ${MAX_COMPARED} host names, separated by commas)</label>
  <div class="compare-form-row">
    <input id="compare-hosts" name="hosts" value="${value}" placeholder="your-store.example, competitor.example" autocomplete="off" spellcheck="false"${error ? html` aria-invalid="true" aria-describedby="compare-error"` : ''}>
    <button class="button" type="submit">Compare</button>
  </div>
  ${error ? html`<p class="form-error" id="compare-error" role="alert">${error}</p>` : ''}
  <p class="muted small">Stores from the <a href="/index">readiness index</a>: each column is the store's latest public scan. Comparing never scans a store.</p>
</form>`;
}

function statusCell(result: Check['results'][number] | undefined): SafeHtml {
  if (!result || result.status === null) return html`<td class="muted">not checked</td>`;
  const s = STATUS[result.status];
  return html`<td><span class="status status-${result.status}"><span aria-hidden="true">${s.icon}</span> ${s.text}</span> <span class="check-points">${result.points}/${result.max}</span></td>`;
}

function storeHead(store: Store): SafeHtml {
  return html`<th scope="col" class="compare-store ${store.scanned ? gradeClass(store.grade) : 'grade-none'}">${store.host}</th>`;
}

function summaryTable(stores: Store[], best: number | null): SafeHtml {
  const cells = (f: (s: Store) => SafeHtml | string) => stores.map((s) => (s.scanned ? html`<td>${f(s)}</td>` : html`<td class="muted">not scanned</td>`));
  const pillarIds = stores.find((s) => s.scanned)?.pillars ?? [];
  return html`<div class="table-wrap"><table class="compare-table" data-testid="compare-summary">
  <caption>Score, grade and pillars</caption>
  <thead><tr><th scope="col">Store</th>${stores.map(storeHead)}</tr></thead>
  <tbody>
    <tr><th scope="row">Score</th>${stores.map((s) =>
      s.scanned
        ? html`<td class="compare-score${s.score === best ? ' compare-best' : ''}"><strong>${s.score}</strong> / 100${s.score === best ? html` <span class="tag">best</span>` : ''}</td>`
        : html`<td class="muted">not scanned</td>`,
    )}</tr>
    <tr><th scope="row">Grade</th>${cells((s) => gradePill(s.grade))}</tr>
    <tr><th scope="row">Capped</th>${cells((s) => (s.capped ? html`<span class="tag tag-block">yes: agents blocked</span>` : 'no'))}</tr>
    ${pillarIds.map(
      (p) => html`<tr><th scope="row">${p.label}</th>${cells((s) => {
        const own = s.pillars?.find((x) => x.id === p.id);
        return own ? `${own.score} / ${own.max}` : '–';
      })}</tr>`,
    )}
    <tr><th scope="row">Scanned</th>${cells((s) => formatTime(s.scanned_at))}</tr>
    <tr><th scope="row">Report</th>${stores.map((s) =>
      s.scanned && s.report_url ? html`<td><a href="${new URL(s.report_url).pathname}">Report of ${s.host}</a></td>` : html`<td class="muted">none</td>`,
    )}</tr>
  </tbody>
</table></div>`;
}

function checksTable(result: StoreComparison, hosts: string[], onlyDifferences: boolean): SafeHtml {
  const scanned = result.stores.filter((s) => s.scanned);
  if (scanned.length < MIN_COMPARED) {
    return html`<p class="empty">Fewer than two of these stores have a public report, so there are no checks to compare. Their owners can <a href="/">scan them</a>.</p>`;
  }
  const shown = onlyDifferences ? result.checks.filter((c) => c.differs) : result.checks;
  const pillars = [...new Set(shown.map((c) => c.pillar))];
  return html`<p class="compare-legend"><strong>${result.differing}</strong> of ${result.checks.length} checks differ between these stores; those rows are marked <span class="tag tag-differs">differs</span>.
  ${onlyDifferences ? html`<a href="${compareHref(hosts)}">Show every check</a>` : html`<a href="${compareHref(hosts, true)}">Show only the differences</a>`}</p>
  <div class="table-wrap"><table class="compare-table compare-checks" data-testid="compare-checks">
  <caption>Every check${onlyDifferences ? ' that differs' : ''}, by pillar</caption>
  <thead><tr><th scope="col">Check</th>${scanned.map(storeHead)}</tr></thead>
  ${pillars.map(
    (pillar) => html`<tbody>
    <tr class="compare-pillar"><th scope="colgroup" colspan="${scanned.length + 1}">${pillar}</th></tr>
    ${shown
      .filter((c) => c.pillar === pillar)
      .map(
        (c) => html`<tr class="${c.differs ? 'differs' : 'same'}" data-check="${c.id}">
      <th scope="row"><a href="/checks/${c.id}">${c.label}</a>${c.differs ? html` <span class="tag tag-differs">differs</span>` : ''}</th>
      ${scanned.map((s) => statusCell(c.results.find((r) => r.host === s.host)))}
    </tr>`,
      )}
  </tbody>`,
  )}
</table></div>`;
}

export function renderComparePage(result: StoreComparison, opts: { onlyDifferences: boolean }): SafeHtml {
  const hosts = result.stores.map((s) => s.host);
  const scores = result.stores.flatMap((s) => (s.scanned && s.score !== undefined ? [s.score] : []));
  const best = scores.length >= 2 ? Math.max(...scores) : null;
  return layout(
    { title: `Compare ${hosts.join(', ')} · Store Readiness`, description: `Agent-readiness of ${hosts.join(', ')} side by side.`, nav: 'index' },
    html`<h1>Compare stores</h1>
${form(hosts.join(', '))}
<section class="card" aria-labelledby="compare-summary-h">
  <h2 id="compare-summary-h">Side by side</h2>
  ${summaryTable(result.stores, best)}
</section>
<section class="card" aria-labelledby="compare-checks-h">
  <h2 id="compare-checks-h">Check by check</h2>
  ${checksTable(result, hosts, opts.onlyDifferences)}
</section>`,
  );
}

function formPage(value: string, error?: string): SafeHtml {
  return layout(
    { title: 'Compare stores · Store Readiness', description: 'Compare the agent-readiness of stores side by side.', nav: 'index' },
    html`<h1>Compare stores</h1>
<p>See how ready stores are for AI shopping agents, side by side: score, grade, pillars and every check, with what differs marked.</p>
${form(value, error)}`,
  );
}

export function comparePage(deps: SurfaceDeps): RequestHandler {
  return async (req, res) => {
    const raw = typeof req.query.hosts === 'string' ? req.query.hosts.slice(0, 2000) : '';
    const hosts = hostList(raw);
    if (hosts.length < MIN_COMPARED) {
      const value = hosts.length === 1 ? `${hosts[0]}, ` : raw;
      sendPage(res, formPage(value, Array.isArray(req.query.hosts) ? 'Give the stores once, separated by commas.' : undefined), {
        status: Array.isArray(req.query.hosts) ? 400 : 200,
        form: true,
      });
      return;
    }
    try {
      const { value } = await invoke(compareStores, { hosts }, { context: () => requestContext(req, res, deps, false, compareStores.name) });
      sendPage(res, renderComparePage(value as StoreComparison, { onlyDifferences: req.query.only === 'differences' }), { cacheControl: 'public, max-age=300', form: true });
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'INVALID_PARAMS') throw err;
      // The tool's own sentence when it is one (a host that is not one, too few different stores), not zod's paths.
      const message = hosts.length > MAX_COMPARED ? `Name at most ${MAX_COMPARED} stores.` : /^hosts\.\d/.test(err.message) ? 'Each entry must be a store host name, such as shop.example.' : err.message;
      sendPage(res, formPage(raw, message), { status: 400, form: true });
    }
  };
}
