// "Every agent's door" on the report page and in its Markdown (schemas/agents.ts): one row per AI agent, grouped by
// what it is for, saying at a glance whether robots.txt lets it in, whether it got the page a browser gets and
// whether it read the same product facts; the findings with their fixes above, and whether signed requests fare
// differently. Differences quote the store: escaped by `html` or mdText like the rest of the report.
import type { Agents } from '../schemas/agents.js';
import { externalLink, html, type SafeHtml } from './html.js';
import { mdText } from './markdown.js';

type Row = Agents['rows'][number];
type Visit = Row['home'];

const GROUPS: { kind: Row['kind']; label: string }[] = [
  { kind: 'user_fetcher', label: 'Fetch pages for a shopper (scored)' },
  { kind: 'search_indexer', label: 'Search indexes behind AI answers' },
  { kind: 'training_crawler', label: 'Training crawlers (never scored)' },
  { kind: 'browser', label: 'Browser agents' },
];

const PAGE = { home: 'home page', product: 'product page' } as const;

/** "Yes", "No: the product page", "Home page only", or why it was not asked. */
function robotsText(r: Row): string {
  if (r.robots_token === null) return 'Reads no robots.txt';
  const { home, product } = r.robots ?? { home: null, product: null };
  if (home === null && product === null) return '—';
  if (home !== false && product !== false) return 'Yes';
  if (home === false && product === false) return 'No';
  return home === false ? 'Not the home page' : 'Not the product page';
}

/** What one answer was, in a few words. */
function visitWords(v: NonNullable<Visit>): string {
  switch (v.access) {
    case 'served':
      return 'the page';
    case 'challenged':
      return `a challenge${v.challenge ? ` (${v.challenge})` : ''}`;
    case 'rate_limited':
      return '429, rate-limited';
    case 'degraded':
      return 'a smaller page';
    case 'blocked':
      return `${v.status ?? 'an error'}`;
    default:
      return v.challenge ?? 'no answer';
  }
}

/** "Yes", "No: 403 on the product page", or the note of an agent not asked. */
function gotPageText(r: Row): string {
  if (r.got_page === null) return r.note ?? 'Not asked';
  if (r.got_page) return 'Yes';
  const misses = (['home', 'product'] as const).flatMap((p) => {
    const v = r[p];
    return v && v.access !== 'served' ? [`${visitWords(v)} on the ${PAGE[p]}`] : [];
  });
  return `No: ${misses.join('; ')}`;
}

function sameFactsText(r: Row): string {
  if (r.same_facts === null) return '—';
  return r.same_facts ? 'Yes' : `No: ${(r.product?.differences ?? []).join(', ')}`;
}

function signatureText(a: Agents): string {
  const s = a.signature;
  if (!s.signing) return 'This instance does not sign its requests, so signed and unsigned agents were not compared.';
  if (s.verdict === 'not_compared') return 'Signed and unsigned requests were not compared on this scan.';
  const what = { same: 'the same answer', signed_only: 'the page only when signed', unsigned_only: 'the page only when unsigned' }[s.verdict];
  return `The same request signed (Web Bot Auth, as ${s.signature_agent ?? 'our scanner'}) and unsigned got ${what}: ${s.signed_status ?? 'no answer'} signed, ${s.unsigned_status ?? 'no answer'} unsigned.`;
}

const mark = (text: string): SafeHtml => (text === 'Yes' ? html`<span class="ok-mark">✓ Yes</span>` : text.startsWith('No') ? html`<span class="missing">✕ ${text}</span>` : html`<span class="muted">${text}</span>`);

export function agentsSection(agents: Agents | undefined): SafeHtml {
  return html`<section class="card" aria-labelledby="agents-h">
  <h2 id="agents-h">Every agent's door</h2>
  ${agents ? sectionBody(agents) : html`<p class="muted">This scan was made before the agents matrix existed: scan again to see it.</p>`}
</section>`;
}

function sectionBody(a: Agents): SafeHtml {
  if (a.status !== 'checked') return html`<p class="muted">${a.note ?? 'Not run.'}</p>`;
  const rows = Array.isArray(a.rows) ? a.rows : [];
  const findings = Array.isArray(a.findings) ? a.findings : [];
  return html`<p class="muted">Each AI agent asked for your home page and a product page with its own user-agent, beside a browser-like request (as seen from our scanner: agents that come from their own networks may fare differently). ${a.note ?? ''}</p>
  ${findings.length === 0
    ? html`<p>Every agent asked got the pages a browser gets, with the same product facts.</p>`
    : html`<ul class="check-list">${findings.map((f) => html`<li><strong>${f.title}</strong><br><span class="muted small">${f.detail}</span><br>Fix: ${f.fix}</li>`)}</ul>`}
  <p class="small">${signatureText(a)}</p>
  <div class="table-wrap"><table class="products agents-table">
    <thead><tr><th scope="col">Agent</th><th scope="col">What it is for</th><th scope="col">Allowed by robots.txt</th><th scope="col">Got the page</th><th scope="col">Same facts</th></tr></thead>
    ${GROUPS.map(({ kind, label }) => {
      const group = rows.filter((r) => r.kind === kind);
      return group.length === 0
        ? html``
        : html`<tbody><tr class="agents-group"><th scope="rowgroup" colspan="5">${label}</th></tr>${group.map(
            (r) => html`<tr>
        <td data-label="Agent"><div><strong>${r.agent}</strong><div class="muted small">${r.operator} · ${externalLink(r.source, 'docs')}</div></div></td>
        <td data-label="What it is for"><div>${r.purpose}</div></td>
        <td data-label="Allowed by robots.txt"><div>${mark(robotsText(r))}</div></td>
        <td data-label="Got the page"><div>${mark(gotPageText(r))}</div></td>
        <td data-label="Same facts"><div>${mark(sameFactsText(r))}</div></td>
      </tr>`,
          )}</tbody>`;
    })}
  </table></div>
  <p class="muted small">${a.requests} requests of at most ${a.max_requests}, apart from the scan's own.</p>`;
}

/** The same matrix as Markdown lines, for the report's Markdown and its MCP resource. */
export function agentsMarkdown(a: Agents | undefined): string[] {
  if (!a) return [];
  const head = ['## Every agent\'s door', ''];
  if (a.status !== 'checked') return [...head, `> ${mdText(a.note ?? 'Not run.', 300)}`, ''];
  const findings = Array.isArray(a.findings) ? a.findings : [];
  return [
    ...head,
    '> Each AI agent asked for the home page and a product page with its own user-agent, beside a browser-like request (as seen from our scanner).' + (a.note ? ` ${mdText(a.note, 300)}` : ''),
    '',
    ...(findings.length === 0
      ? ['Every agent asked got the pages a browser gets, with the same product facts.', '']
      : [...findings.map((f) => `- **${mdText(f.title, 200)}** (\`${f.id}\`): ${mdText(f.detail, 600)} Fix: ${mdText(f.fix, 800)}`), '']),
    mdText(signatureText(a), 400),
    '',
    '| Agent | Kind | What it is for | Allowed by robots.txt | Got the page | Same facts |',
    '|---|---|---|---|---|---|',
    ...(Array.isArray(a.rows) ? a.rows : []).map(
      (r) => `| ${mdText(r.agent, 60)} (${mdText(r.operator, 60)}) | ${r.kind.replace('_', ' ')} | ${mdText(r.purpose, 120)} | ${mdText(robotsText(r), 60)} | ${mdText(gotPageText(r), 200)} | ${mdText(sameFactsText(r), 200)} |`,
    ),
    '',
  ];
}
