// Does a product page answer `Accept: text/markdown` with Markdown that names the product? Markdown is what
// agents feed their models; an advertised .md alternate is noted but only real negotiation earns the point.
import { defineCheck } from '../../check.js';
import { describe, is2xx, responseOf, sampledPdps } from '../shared.js';

function norm(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

export default defineCheck({
  id: 'protocol_markdown',
  pillar: 'protocols',
  order: 4,
  points: 1,
  partialPoints: 0,
  label: 'Markdown for agents',
  title: 'Product pages answer Accept: text/markdown',
  failureTitle: 'Answer Accept: text/markdown',
  why: 'Markdown is compact and unambiguous for language models; serving it on request saves agents from parsing your HTML.',
  how: 'When a request asks for `text/markdown`, return a Markdown rendering of the page with `Content-Type: text/markdown` and `Vary: Accept` (an edge rule or CDN feature can do this), and link it as `rel="alternate" type="text/markdown"`.',
  run(a) {
    const pdp = sampledPdps(a)[0];
    const alternate = pdp?.page?.headLinks.find((l) => l.rel.includes('alternate') && l.type === 'text/markdown');
    const note = alternate ? `; a text/markdown alternate is advertised (${alternate.href.slice(0, 100)}) but earns nothing without negotiation` : '';
    if (!a.pdpAgentMarkdown) return { status: 'fail', evidence: `No product page was requested as Markdown (no product page found)${note}.` };
    const res = responseOf(a.pdpAgentMarkdown);
    if (!res || !is2xx(res.status)) return { status: 'fail', evidence: `Markdown request ${describe(a.pdpAgentMarkdown)}${note}.` };
    if (res.contentType !== 'text/markdown' && res.contentType !== 'text/x-markdown') {
      return { status: 'fail', evidence: `${res.url} answered Accept: text/markdown with ${res.contentType || 'no content type'}${note}.` };
    }
    const name = pdp?.product?.name?.value ?? pdp?.page?.h1 ?? null;
    const body = norm(res.body.slice(0, 500_000));
    if (name && !body.includes(norm(name).slice(0, 60))) {
      return { status: 'fail', evidence: `${res.url} → ${res.status} text/markdown, but the product name "${name.slice(0, 60)}" is not in it.` };
    }
    if (body === '') return { status: 'fail', evidence: `${res.url} → ${res.status} text/markdown with an empty body.` };
    return { status: 'pass', evidence: `${res.url} → ${res.status} text/markdown (${res.body.length} characters${name ? `, names "${name.slice(0, 60)}"` : ''}).` };
  },
});
