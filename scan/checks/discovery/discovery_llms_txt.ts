// Is there an llms.txt an agent can read: Markdown served as text, an H1, a `>` summary and `##` sections listing
// links (llmstxt.org)? Stricter than Lighthouse's llms.txt audit, which wants only an H1, one link and 50 characters.
import { defineCheck } from '../check.js';
import { describe, quote } from '../evidence.js';
import { is2xx, responseOf } from '../../documents/resources.js';

const LINK_LINE = /^[-*] \[[^\]\n]{1,300}\]\([^)\s]{1,1000}\)/;

function outline(body: string) {
  const lines = body.replace(/^\uFEFF/, '').slice(0, 512 * 1024).split(/\r?\n/).map((l) => l.slice(0, 2000).trim());
  const first = lines.find((l) => l !== '') ?? '';
  let inSection = false;
  let sectionLinks = 0;
  let sections = 0;
  let summary = false;
  for (const l of lines) {
    if (l.startsWith('## ')) {
      inSection = true;
      sections++;
    } else if (l.startsWith('> ')) summary = true;
    else if (inSection && LINK_LINE.test(l)) sectionLinks++;
  }
  return { h1: first.startsWith('# ') ? first.slice(2).trim() : null, summary, sections, sectionLinks };
}

function looksLikeHtml(body: string): boolean {
  const head = body.slice(0, 1024).trimStart().toLowerCase();
  return head.startsWith('<') || head.includes('<html') || head.includes('<body');
}

export default defineCheck({
  id: 'discovery_llms_txt',
  label: 'llms.txt for agents',
  title: 'An llms.txt guides agents to your key pages',
  failureTitle: 'Publish an llms.txt for your store',
  why: 'llms.txt gives an agent a one-file map of what you sell and where your policies are. We require the llmstxt.org structure (H1, `>` summary, `##` link sections) and count a 404 as a failure, stricter than Lighthouse, which needs only an H1, a link and 50 characters and treats a 4xx as not applicable.',
  how: 'Create `/llms.txt` in Markdown: an `# Store name` H1, a `> ` one-paragraph summary (what you sell, where you ship, currency), then `## Products`, `## Policies`, `## Support` sections listing `- [Title](https://…): note` links to key collections, best sellers, shipping, returns and contact pages. Serve it as `text/plain` or `text/markdown`, never as an HTML page.',
  fix: {
    plain: 'Publish a short guide to your store for AI assistants: what you sell, where you ship, and links to your key pages.',
    effort: 'about an hour',
    steps: {
      shopify: 'Shopify cannot serve a file at /llms.txt from the theme: use an app that publishes llms.txt, or a redirect from /llms.txt to a file under Content → Files.',
      woocommerce: 'Upload llms.txt to the root of your site (next to wp-config.php) over SFTP, or use a plugin that generates it.',
      bigcommerce: 'Upload llms.txt to the root folder over WebDAV (Server settings → File access).',
      custom: 'Put llms.txt at the root of your site, served as plain text. Start from the outline below.',
    },
    snippet: '# Your store name\n\n> What you sell, for whom, where you ship and in which currency.\n\n## Products\n\n- [Best sellers](https://your-store.example/collections/best-sellers): our most popular products\n\n## Policies\n\n- [Shipping](https://your-store.example/shipping): costs and delivery times\n- [Returns](https://your-store.example/returns): return window and how to return\n\n## Support\n\n- [Contact](https://your-store.example/contact): e-mail and phone',
  },
  run(a) {
    const res = responseOf(a.llmsTxt);
    if (!res || !is2xx(res.status)) return { status: 'fail', evidence: `llms.txt ${describe(a.llmsTxt)}.` };
    const where = `${res.url} → ${res.status} ${res.contentType || '(no content type)'}`;
    const o = outline(res.body);
    const htmlType = res.contentType === 'text/html' || res.contentType === 'application/xhtml+xml';
    if (o.h1 === null) {
      if (looksLikeHtml(res.body)) return { status: 'fail', evidence: `${where}: an HTML page (soft 404), not Markdown.` };
      return { status: 'fail', evidence: `${where}: the first line is not a "# " heading (${quote(res.body.trim().split('\n')[0] ?? '', 60)}).` };
    }
    const missing: string[] = [];
    if (!o.summary) missing.push('no "> " summary');
    if (o.sectionLinks === 0) missing.push(o.sections === 0 ? 'no "## " section' : 'no "- [name](url)" link in a section');
    if (htmlType) missing.push('served as text/html');
    const found = `H1 ${quote(o.h1, 60)}, ${o.sections} section${o.sections === 1 ? '' : 's'}, ${o.sectionLinks} link${o.sectionLinks === 1 ? '' : 's'}`;
    if (missing.length > 0) return { status: 'partial', evidence: `${where}: ${found}; ${missing.join(', ')}.` };
    return { status: 'pass', evidence: `${where}: ${found}, with a summary.` };
  },
});
