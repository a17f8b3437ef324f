// Is /robots.txt a well-formed file that crawlers can rely on: 200, text/plain, at least one group, no junk lines,
// under the 500 KiB RFC 9309 parsing limit? Permissions themselves are judged by access_live_agents_robots.
import { defineCheck } from '../check.js';
import { describe } from '../evidence.js';
import { is2xx, responseOf } from '../../documents/resources.js';

const MAX_BYTES = 500 * 1024;

function looksLikeHtml(body: string): boolean {
  const head = body.slice(0, 1024).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<head') || head.includes('<body');
}

export default defineCheck({
  id: 'discovery_robots_txt',
  label: 'Valid robots.txt',
  title: 'robots.txt is valid',
  failureTitle: 'Publish a valid robots.txt',
  why: 'robots.txt is the first file every crawler and agent reads; it tells them what they may fetch and where your sitemap is.',
  how: 'Serve `/robots.txt` with 200 and `Content-Type: text/plain`, UTF-8, under 500 KiB, with at least one `User-agent:` group, `Allow` and `Disallow` lines, and a `Sitemap:` line. A 5xx on robots.txt makes compliant crawlers treat the whole site as disallowed.',
  fix: {
    plain: 'Publish a working robots.txt, the first file every crawler and assistant reads to learn what it may fetch and where your product list is.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Shopify publishes robots.txt for you; if you edited the robots.txt.liquid template, check that it still answers and keeps the Sitemap line.',
      woocommerce: 'Create or edit robots.txt with your SEO plugin, or upload the file to the root of the site, and keep the Sitemap line.',
      bigcommerce: 'BigCommerce publishes robots.txt for you; check its rules in Settings → Website → Search engine robots and keep the Sitemap line.',
      custom: 'Serve /robots.txt as plain text, starting from the lines below.',
    },
    snippet: 'User-agent: *\nDisallow: /cart\nDisallow: /checkout\nAllow: /\n\nSitemap: https://your-store.example/sitemap.xml',
  },
  run(a) {
    const res = responseOf(a.robotsTxt);
    if (!res || !is2xx(res.status)) {
      const note = res && res.status >= 500 ? ' (compliant crawlers treat the whole store as disallowed)' : '';
      return { status: 'fail', evidence: `robots.txt ${describe(a.robotsTxt)}${note}.` };
    }
    const where = `${res.url} → ${res.status} ${res.contentType || '(no content type)'}`;
    if (looksLikeHtml(res.body)) return { status: 'partial', evidence: `${where}: an HTML page (soft 404), not a robots.txt file.` };
    const problems: string[] = [];
    if (res.contentType !== 'text/plain') problems.push(`content type ${res.contentType || 'missing'} instead of text/plain`);
    if (a.robots.groups.length === 0) problems.push('no User-agent group');
    if (a.robots.parseErrors > 0) problems.push(`${a.robots.parseErrors} unparseable line${a.robots.parseErrors > 1 ? 's' : ''}`);
    const bytes = Buffer.byteLength(res.body, 'utf8');
    if (bytes >= MAX_BYTES || (!a.robotsTxt.ok && a.robotsTxt.reason === 'too-large')) problems.push(`${Math.round(bytes / 1024)} KiB, over the 500 KiB limit`);
    if (problems.length > 0) return { status: 'partial', evidence: `${where}: ${problems.join('; ')}.` };
    const sitemaps = a.robots.sitemaps.length;
    return {
      status: 'pass',
      evidence: `${where}: ${a.robots.groups.length} user-agent group${a.robots.groups.length > 1 ? 's' : ''}, ${sitemaps} Sitemap line${sitemaps === 1 ? '' : 's'}.`,
    };
  },
});
