// GET /console/brief/{scan_id}: the agent brief as a page for the signed-in merchant (the report's "Agent brief"
// link), with a download of the same Markdown from the API (the session counts as the Pro key there). The
// Markdown is rendered by markdown-it with raw HTML off, so store text quoted in the brief stays text.
import type { RequestHandler } from 'express';
import MarkdownIt from 'markdown-it';
import type { Repository } from '../../db/repo.js';
import { renderBrief } from '../../tools/render-brief.js';
import { readableReport } from '../../tools/stored-report.js';
import { html, raw, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { signedIn } from './session.js';

// html: false escapes any HTML in the source; markdown-it's link check already refuses javascript: and data:.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function renderBriefPage(scan: { id: number; host: string; report: unknown }, baseUrl: string): { title: string; body: SafeHtml } {
  const source = renderBrief({ ...readableReport(scan.report), scan_id: scan.id }, { baseUrl });
  return {
    title: `Agent brief for ${scan.host}`,
    body: html`<p class="eyebrow">Agent brief</p>
<h1>Agent brief for ${scan.host}</h1>
<p class="lead">The fixes of <a href="/r/${scan.id}">this report</a> in the order to make them, with paste-ready markup. Hand it to your developer or a coding agent as it is.</p>
<p class="actions"><a class="button button-primary" href="/api/v1/scan/${scan.id}/brief.md" download="agent-brief-${scan.id}.md">Download the Markdown</a> <a class="button button-quiet" href="/r/${scan.id}">Back to the report</a></p>
<article class="card brief" data-testid="brief">${raw(markdown.render(source))}</article>`,
  };
}

export function briefPage(deps: { db: Repository; config: { BASE_URL: string } }): RequestHandler {
  return async (req, res) => {
    const id = String(req.params.scan_id);
    const scan = /^[1-9]\d{0,14}$/.test(id) ? await deps.db.getScan(Number(id)) : null;
    const who = signedIn(res)!;
    if (!scan) {
      sendConsolePage(res, consolePage('Brief not found', who, null, html`<h1>There is no such report</h1><p>The link may be mistyped. <a href="/console/scans">Your scans</a> list the reports you can open.</p>`), { status: 404 });
      return;
    }
    const { title, body } = renderBriefPage(scan, deps.config.BASE_URL);
    sendConsolePage(res, consolePage(title, who, null, body));
  };
}
