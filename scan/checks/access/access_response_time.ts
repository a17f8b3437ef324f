// How long a cold request takes to deliver the whole page (HttpResponse.ms, measured by the fetcher). Agents run
// on tight per-fetch budgets, so a slow store is read partially or not at all.
import { defineCheck } from '../check.js';
import type { Resource } from '../../artifacts.js';
import { describe } from '../evidence.js';
import { responseOf } from '../../documents/resources.js';

const HOME_PASS_MS = 1500;
const PDP_PASS_MS = 2000;
const PARTIAL_MS = 4000;

function timing(r: Resource): { url: string; ms: number | null; detail: string } {
  const res = responseOf(r);
  if (res) return { url: res.url, ms: res.ms, detail: `${res.ms} ms` };
  return { url: r.ok ? r.res.url : r.url, ms: null, detail: describe(r) };
}

export default defineCheck({
  id: 'access_response_time',
  label: 'Pages answer fast',
  title: 'Pages answer fast',
  failureTitle: 'Serve pages faster to agents',
  why: 'Agent fetchers give up after a few seconds per page; a slow homepage or product page is dropped from the answer.',
  how: 'Agents give up after a few seconds. Cache product and home pages at the CDN, trim server-side work before the first byte, and keep the HTML lean; aim for the whole homepage in under 1.5 s from a cold request.',
  fix: {
    plain: 'Make your home and product pages open faster, because assistants give up on a page that takes more than a few seconds.',
    effort: 'a day or more',
    steps: {
      shopify: 'Remove apps you no longer use (many add code to every page), compress large images, and consider a lighter theme; Shopify serves the pages from its own fast network.',
      woocommerce: 'Turn on page caching (your host’s or a caching plugin), serve the site through a CDN, and remove plugins you do not need.',
      bigcommerce: 'Remove apps and scripts you no longer use, and compress large images; BigCommerce serves the pages from its own fast network.',
      custom: 'Cache home and product pages at your CDN, cut the server’s work before the first byte, and keep the HTML lean; aim for under 1.5 seconds.',
    },
  },
  run(a) {
    const home = timing(a.home);
    const pdps = a.pdps.map((p) => timing(p.resource));
    const evidence = [`homepage ${home.detail}`, ...pdps.map((p) => `${p.url} ${p.detail}`)].join('; ');
    if (home.ms === null) return { status: 'fail', evidence: `No timing: ${evidence}.` };
    const timedOut = a.pdps.some((p) => !p.resource.ok && p.resource.reason === 'timeout');
    const slowest = Math.max(home.ms, ...pdps.map((p) => p.ms ?? 0));
    if (timedOut || slowest >= PARTIAL_MS) return { status: 'fail', evidence: `Too slow (${PARTIAL_MS / 1000} s or a timeout): ${evidence}.` };
    const fast = home.ms < HOME_PASS_MS && pdps.every((p) => p.ms === null || p.ms < PDP_PASS_MS);
    if (fast) return { status: 'pass', evidence: `${evidence}.` };
    return { status: 'partial', evidence: `Under 4 s but above the 1.5 s homepage / 2 s product page targets: ${evidence}.` };
  },
});
