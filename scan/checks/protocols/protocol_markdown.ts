// Does a product page answer `Accept: text/markdown` with Markdown that names the product? With no product page
// found, R13 asked the homepage instead, and its title or h1 must be in the Markdown. An advertised .md alternate
// is noted but only real negotiation earns the point.
import { defineCheck } from '../check.js';
import { describe } from '../evidence.js';
import { sampledPdps } from '../product-pages.js';
import { is2xx, responseOf } from '../../documents/resources.js';

function norm(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

export default defineCheck({
  id: 'protocol_markdown',
  label: 'Markdown for agents',
  title: 'Pages answer Accept: text/markdown',
  failureTitle: 'Answer Accept: text/markdown',
  why: 'Markdown is compact and unambiguous for language models; serving it on request saves agents from parsing your HTML. We ask the first sampled product page, or the homepage when the scan found no product page.',
  how: 'When a request asks for `text/markdown`, return a Markdown rendering of the page with `Content-Type: text/markdown` and `Vary: Accept` (an edge rule or CDN feature can do this), and link it as `rel="alternate" type="text/markdown"`.',
  fix: {
    plain: 'Offer a plain-text version of your pages to assistants that ask for it, which they read faster and more accurately than your page design.',
    effort: 'about an hour',
    steps: {
      shopify: 'This needs a rule at a CDN or proxy in front of the store, or an app that offers it; set up by a developer.',
      woocommerce: 'Use a plugin that serves Markdown versions of pages, or a rule at your CDN.',
      bigcommerce: 'This needs a rule at a CDN or proxy in front of the store; set up by a developer.',
      custom: 'Answer requests that ask for text/markdown with a Markdown version of the page (many CDNs can do this with an edge rule).',
    },
  },
  run(a) {
    const pdp = sampledPdps(a)[0];
    // docs/checks.md §2 R13: PDP #1, or the homepage when no product page was found.
    const page = pdp ? pdp.page : a.homePage;
    const asked = pdp ? 'Product page' : 'No product page found, so the homepage was asked:';
    const alternate = page?.headLinks.find((l) => l.rel.includes('alternate') && l.type === 'text/markdown');
    const note = alternate ? `; a text/markdown alternate is advertised (${alternate.href.slice(0, 100)}) but earns nothing without negotiation` : '';
    if (!a.pdpAgentMarkdown) return { status: 'fail', evidence: `No page was requested as Markdown (no product page found)${note}.` };
    const res = responseOf(a.pdpAgentMarkdown);
    if (!res || !is2xx(res.status)) return { status: 'fail', evidence: `${asked} Markdown request ${describe(a.pdpAgentMarkdown)}${note}.` };
    if (res.contentType !== 'text/markdown' && res.contentType !== 'text/x-markdown') {
      return { status: 'fail', evidence: `${asked} ${res.url} answered Accept: text/markdown with ${res.contentType || 'no content type'}${note}.` };
    }
    // What the Markdown must name: the product (its name, else the h1), or the homepage's title or h1.
    const names = (pdp ? [pdp.product?.name?.value ?? pdp.page?.h1 ?? null] : [a.homePage?.title ?? null, a.homePage?.h1 ?? null]).filter(
      (n): n is string => typeof n === 'string' && n.trim() !== '',
    );
    const body = norm(res.body.slice(0, 500_000));
    const named = names.find((n) => body.includes(norm(n).slice(0, 60)));
    if (names.length > 0 && !named) {
      const what = pdp ? `the product name "${names[0].slice(0, 60)}"` : `neither the homepage title nor its h1 ("${names[0].slice(0, 60)}")`;
      return { status: 'fail', evidence: `${asked} ${res.url} → ${res.status} text/markdown, but ${what} is not in it.` };
    }
    if (body === '') return { status: 'fail', evidence: `${asked} ${res.url} → ${res.status} text/markdown with an empty body.` };
    return {
      status: 'pass',
      evidence: `${asked} ${res.url} → ${res.status} text/markdown (${res.body.length} characters${named ? `, names "${named.slice(0, 60)}"` : ''}).`,
    };
  },
});
