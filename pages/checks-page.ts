// GET /checks (the catalogue: every check by pillar with its points) and GET /checks/{id} (what one check
// measures, how it scores and how to fix it). Everything comes from the check declarations, so these pages,
// the report, the brief, the Markdown and the MCP answers say the same thing.
import type { RequestHandler } from 'express';
import type { CheckDef } from '../scan/checks/check.js';
import { CHECKS } from '../scan/checks/registry.js';
import { PILLARS } from '../scan/checks/pillars.js';
import { CAP_SCORE, pillarMax } from '../scan/checks/rubric.js';
import { html, inlineMarkdown, layout, messagePage, PRODUCT_NAME, sendPage, type SafeHtml } from './html.js';
import { merchantFix } from './fix.js';
import { COPY_SCRIPT_SRC } from './console/layout.js';

const CAPS: Record<string, string> = {
  H1: `A failure caps the whole score at ${CAP_SCORE}: the live AI agents cannot get in.`,
  H2: `A failure caps the whole score at ${CAP_SCORE}: bot protection blocks the agents.`,
  H3: `A failure caps the whole score at ${CAP_SCORE}: the storefront is closed to automated visitors.`,
};

export function renderChecksCatalogue(): SafeHtml {
  return layout(
    { title: `What we check · ${PRODUCT_NAME}`, description: `Every check of the ${PRODUCT_NAME} score: what it measures, its points and how to fix it.`, nav: null },
    html`<section class="card">
  <p class="eyebrow">The score</p>
  <h1>What we check</h1>
  <p class="lead">${CHECKS.length} checks in ${PILLARS.length} pillars add up to 100 points. A check passes (all its points), partly passes (some) or fails (none). Open a check to see what it measures and how to fix it.</p>
</section>
${PILLARS.map(
  (p) => html`<section class="card" aria-labelledby="pillar-${p.id}">
  <h2 id="pillar-${p.id}">${p.label} <span class="muted">${pillarMax(p.id)} points</span></h2>
  <ul class="check-catalogue">${CHECKS.filter((c) => c.pillar === p.id).map(
    (c) => html`<li><a href="/checks/${c.id}">${c.label}</a> <span class="muted">${c.points} ${c.points === 1 ? 'point' : 'points'}</span>${c.hardBlock ? html` <span class="tag tag-block">can cap the score</span>` : ''}<br><span class="small muted">${inlineMarkdown(c.why)}</span></li>`,
  )}</ul>
</section>`,
)}`,
  );
}

export function renderCheckPage(check: CheckDef): SafeHtml {
  const pillar = PILLARS.find((p) => p.id === check.pillar);
  return layout(
    { title: `${check.label} · What we check · ${PRODUCT_NAME}`, description: check.why, nav: null },
    html`<nav class="breadcrumb small" aria-label="Breadcrumb"><a href="/checks">What we check</a> › ${pillar?.label ?? check.pillar}</nav>
<section class="card" data-check-id="${check.id}">
  <p class="eyebrow">${pillar?.label ?? check.pillar}</p>
  <h1>${check.label}</h1>
  <p class="lead">${inlineMarkdown(check.why)}</p>
  <h2>What we measure</h2>
  <p>It passes when: ${inlineMarkdown(check.title)}.</p>
  <h2>How it scores</h2>
  <ul>
    <li>Pass: ${check.points} ${check.points === 1 ? 'point' : 'points'}${pillar ? html` of the ${pillarMax(pillar.id)} of ${pillar.label}` : ''}.</li>
    ${check.partialPoints > 0 ? html`<li>Partly: ${check.partialPoints} ${check.partialPoints === 1 ? 'point' : 'points'}.</li>` : ''}
    <li>Fail: no points.${check.hardBlock ? html` ${CAPS[check.hardBlock]}` : ''}</li>
  </ul>
</section>
<section class="card fix" aria-labelledby="fix-h">
  <h2 id="fix-h">How to fix it: ${check.failureTitle}</h2>
  ${merchantFix(check, check.how, `check-${check.id}`)}
</section>
<script src="${COPY_SCRIPT_SRC}"></script>`,
  );
}

export const checksCatalogue: RequestHandler = (_req, res) => void sendPage(res, renderChecksCatalogue(), { script: true, cacheControl: 'public, max-age=3600' });

export const checkPage: RequestHandler = (req, res) => {
  const check = CHECKS.find((c) => c.id === req.params.id);
  if (!check) {
    sendPage(
      res,
      messagePage({ title: 'Check not found', heading: 'There is no such check', body: html`<p>The name may be mistyped. <a href="/checks">See every check</a>.</p>` }),
      { status: 404 },
    );
    return;
  }
  sendPage(res, renderCheckPage(check), { script: true, cacheControl: 'public, max-age=3600' });
};

