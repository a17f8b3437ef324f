// Read the page as Lighthouse does: the axe-core rules its Agentic Browsing category fails a page on (the
// agent-accessibility-tree audit: names of buttons, links and fields, ARIA, autocomplete, …), and two more that
// matter on the way to a checkout (a button nested in a link, a payment frame without a title). What comes back
// ran inside the store's page: it is parsed, cut and kept only for the rules asked.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { BROWSER_VIEW_CAPS as CAPS } from '../../schemas/browser-view.js';
import type { JourneyAccessibility } from '../../schemas/journey.js';
import { withTimeout } from '../with-timeout.js';
import { AxeAnswer, fromPage } from '../page-data.js';

/** Lighthouse's agent-accessibility-tree rules, then ours. */
export const AGENT_AXE_RULES = [
  'button-name', 'input-button-name', 'input-image-alt', 'label', 'link-name', 'select-name', 'document-title',
  'aria-allowed-attr', 'aria-allowed-role', 'aria-command-name', 'aria-conditional-attr', 'aria-dialog-name',
  'aria-hidden-body', 'aria-hidden-focus', 'aria-input-field-name', 'aria-prohibited-attr', 'aria-required-attr',
  'aria-required-children', 'aria-required-parent', 'aria-roles', 'aria-text', 'aria-toggle-field-name',
  'aria-tooltip-name', 'aria-treeitem-name', 'aria-valid-attr', 'aria-valid-attr-value', 'duplicate-id-aria',
  'definition-list', 'table-duplicate-name', 'tabindex', 'autocomplete-valid', 'presentation-role-conflict',
  'svg-img-alt',
  'nested-interactive', 'frame-title',
];
const RULES = new Set(AGENT_AXE_RULES);

let source: string | null = null;
const axeSource = () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

const RUN = `axe.run(document, { runOnly: { type: 'rule', values: ${JSON.stringify(AGENT_AXE_RULES)} }, resultTypes: ['violations'] })
  .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`;

/** The agent rules' violations on the page as it is now, or null when axe did not answer in time. */
export async function agentAxe(page: Page, step: JourneyAccessibility['step'], timeoutMs: number): Promise<JourneyAccessibility | null> {
  const started = Date.now();
  const injected = await withTimeout(page.evaluate(axeSource()), timeoutMs).then(() => true, () => false);
  if (!injected) return null;
  const results = await fromPage(AxeAnswer, withTimeout(page.evaluate(RUN), Math.max(100, timeoutMs - (Date.now() - started))), null);
  if (!results) return null;
  const violations = results
    .filter((v) => RULES.has(v.id))
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, CAPS.axeTargets).map((n) => n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' ').slice(0, CAPS.axeText)),
    }));
  return { step, url: page.url().slice(0, CAPS.journeyUrl), violations: violations.slice(0, CAPS.axeRules) };
}
