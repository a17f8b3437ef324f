// "Every agent's door" on the report page and in its Markdown (pages/agents-matrix.ts): one row per agent grouped by
// kind, readable at a glance (what it is for, allowed by robots.txt, got the page, same facts), the findings with
// their fixes; store text (the facts an agent was shown) escaped in both.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentsMarkdown, agentsSection } from '../../pages/agents-matrix.js';
import type { Agents } from '../../schemas/agents.js';
import { AGENTS } from '../../scan/agents/table.js';

const visit = (url: string, access: NonNullable<Agents['rows'][number]['home']>['access'] = 'served', differences: string[] = []) => ({
  url, status: access === 'served' ? 200 : 403, access, challenge: null, ms: 12, differences,
});

const HOSTILE = 'price <script>alert(1)</script> | 79 EUR, not 89 EUR';

function agents(): Agents {
  const rows = AGENTS.map((a) => ({
    agent: a.name, operator: a.operator, kind: a.kind, purpose: a.purpose, robots_token: a.token, user_agent: a.userAgent, source: a.source,
    robots: { home: a.token ? a.name !== 'GPTBot' : null, product: a.token ? a.name !== 'GPTBot' : null },
    home: a.name === 'ChatGPT-User' ? visit('https://shop.example/', 'blocked') : visit('https://shop.example/'),
    product: a.name === 'OAI-SearchBot' ? visit('https://shop.example/p', 'served', [HOSTILE]) : visit('https://shop.example/p'),
    got_page: a.name !== 'ChatGPT-User',
    same_facts: a.name === 'OAI-SearchBot' ? false : true,
    note: null,
  }));
  return {
    status: 'checked', note: null,
    baseline: { user_agent: 'ua', home: visit('https://shop.example/'), product: visit('https://shop.example/p') },
    signature: { signing: true, signature_agent: 'https://readiness.example', key_id: 'k', url: 'https://shop.example/p', signed_status: 200, unsigned_status: 200, verdict: 'same' },
    rows,
    findings: [{ id: 'cloaking', agents: ['OAI-SearchBot'], title: 'Agents are shown other product facts than shoppers', detail: `OAI-SearchBot: ${HOSTILE} on the product page.`, fix: 'Serve agents the page you serve shoppers.' }],
    requests: 11, max_requests: 24,
  };
}

describe('the agents matrix on the report', () => {
  it('a table people read at a glance, grouped by kind, store text escaped', () => {
    const page = agentsSection(agents()).toString();
    assert.match(page, /<th scope="col">Agent<\/th><th scope="col">What it is for<\/th><th scope="col">Allowed by robots.txt<\/th><th scope="col">Got the page<\/th><th scope="col">Same facts<\/th>/);
    for (const group of ['Fetch pages for a shopper (scored)', 'Search indexes behind AI answers', 'Training crawlers (never scored)', 'Browser agents']) assert.ok(page.includes(group), group);
    assert.match(page, /<strong>ChatGPT-User<\/strong>[\s\S]*?✕ No: 403 on the home page/);
    assert.match(page, /<strong>GPTBot<\/strong>[\s\S]*?✕ No</);
    assert.doesNotMatch(page, /<script>alert/);
    assert.match(page, /price &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(page, /The same request signed \(Web Bot Auth, as https:\/\/readiness\.example\) and unsigned got the same answer/);
    assert.match(page, /11 requests of at most 24, apart from the scan's own/);
  });

  it('the same in Markdown, with no table cell or tag a store could smuggle in', () => {
    const md = agentsMarkdown(agents()).join('\n');
    assert.match(md, /^## Every agent's door$/m);
    assert.match(md, /^\| Agent \| Kind \| What it is for \| Allowed by robots\.txt \| Got the page \| Same facts \|$/m);
    const oai = md.split('\n').find((l) => l.startsWith('| OAI-SearchBot'))!;
    assert.equal(oai.split(/(?<!\\)\|/).length, 8, 'six cells: the store\'s "|" is escaped');
    assert.match(oai, /No: price \\<script\\>alert\\\(1\\\)\\<\/script\\> \\\| 79 EUR/);
  });

  it('a scan without the matrix says why; one made before it existed says to scan again', () => {
    const notRun: Agents = { ...agents(), status: 'not_run', note: "Not run: the agents matrix runs on scans of a store's root only.", rows: [], findings: [] };
    assert.match(agentsSection(notRun).toString(), /runs on scans of a store&#39;s root only|runs on scans of a store's root only/);
    assert.match(agentsSection(undefined).toString(), /scan again to see it/);
    assert.deepEqual(agentsMarkdown(undefined), []);
  });
});
