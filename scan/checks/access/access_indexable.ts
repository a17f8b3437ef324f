// Can search-based agents index the product pages? Reads the robots meta tags and X-Robots-Tag directives that the
// page parser collected; AI opt-outs such as noai are a merchant's choice and only cost the partial grade.
import { defineCheck } from '../check.js';
import type { PageFacts } from '../../artifacts.js';
import { NO_PRODUCT_PAGE } from '../evidence.js';
import { sampledPdps } from '../product-pages.js';

const BLOCKING = ['noindex', 'none'];
const LIMITING = ['noai', 'noimageai', 'noml', 'nosnippet'];

/** Directives without a "googlebot:"-style prefix. */
function directives(page: PageFacts): string[] {
  return page.robots.flatMap((d) => d.split(',')).map((d) => {
    const t = d.trim().toLowerCase();
    const colon = t.indexOf(':');
    return colon >= 0 && !t.startsWith('unavailable_after') ? t.slice(colon + 1).trim() : t;
  });
}

export default defineCheck({
  id: 'access_indexable',
  label: 'Product pages indexable',
  title: 'Product pages may be indexed',
  failureTitle: 'Remove noindex from product pages',
  why: 'ChatGPT search, Google AI Mode and Perplexity answer from their indexes; a page marked noindex never gets there.',
  how: 'Delete `noindex`/`none` from the robots meta tag and from any `X-Robots-Tag` header on product and category pages; search-based agents (ChatGPT search, Google AI Mode, Perplexity) only use indexed pages. If you want to opt out of training, use `noai` or robots.txt rules for training crawlers instead.',
  fix: {
    plain: 'Let search-based assistants list your product pages, because pages marked "do not index" never appear in their answers.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Look for a "noindex" setting on products in your SEO app and in your theme’s product template, and remove it.',
      woocommerce: 'In Settings → Reading, untick "Discourage search engines from indexing this site", then check your SEO plugin’s "noindex" settings for products.',
      bigcommerce: 'Look for a "noindex" robots tag in your theme’s product template and in any SEO app, and remove it from product pages.',
      custom: 'Remove "noindex" (and "none") from the robots meta tag and from any X-Robots-Tag header on product and category pages.',
    },
  },
  run(a) {
    const pdps = sampledPdps(a).flatMap((p) => (p.page ? [p.page] : []));
    const home = a.homePage;
    if (!home && pdps.length === 0) return { status: 'fail', evidence: `No page could be inspected (${NO_PRODUCT_PAGE}).` };
    const found = (page: PageFacts, list: string[]) => directives(page).filter((d) => list.includes(d));

    // The homepage decides only when there is no product page (docs/checks.md §4).
    const judged = pdps.length > 0 ? pdps : home ? [home] : [];
    const blocked = judged.map((p) => ({ url: p.url, d: found(p, BLOCKING) })).filter((x) => x.d.length > 0);
    if (blocked.length > 0) {
      return { status: 'fail', evidence: blocked.map((b) => `${b.url}: ${b.d.join(', ')}`).join('; ') };
    }
    const all = home && !judged.includes(home) ? [home, ...judged] : judged;
    const notes: string[] = [];
    for (const p of all) {
      const d = [...found(p, BLOCKING), ...found(p, LIMITING)];
      if (d.length > 0) notes.push(`${p.url}: ${d.join(', ')}`);
    }
    if (notes.length > 0) return { status: 'partial', evidence: `Indexable, but limited: ${notes.join('; ')}` };
    return { status: 'pass', evidence: `No noindex/none directive on ${all.map((p) => p.url).join(', ')}.` };
  },
});
