// A fix as a merchant reads it, from the check's declaration (the one place its texts live): one plain sentence,
// the effort, steps per platform where they differ, the paste-ready snippet with a copy button, and the protocol
// detail under "For your developer". Used by the report's fixes and by /checks/{id}.
import type { CheckDef, Platform } from '../scan/checks/check.js';
import { PLATFORMS } from '../scan/checks/check.js';
import { html, inlineMarkdown, renderHowTo, type SafeHtml } from './html.js';

const PLATFORM_NAMES: Record<Platform, string> = { shopify: 'Shopify', woocommerce: 'WooCommerce', bigcommerce: 'BigCommerce', custom: 'Custom site' };

/**
 * The fix of a check; `how` is the developer text for this store (the report's) or the declaration's. Copy
 * buttons need our script, which the report page (it shows store text) does not load: there it links to the
 * check's page, which has them.
 */
export function merchantFix(check: CheckDef, how: string, idPrefix: string, opts: { copy: boolean } = { copy: true }): SafeHtml {
  const fix = check.fix;
  const snippetId = `${idPrefix}-snippet`;
  return html`${fix ? html`<p class="fix-plain">${fix.plain} <span class="tag effort">Effort: ${fix.effort}</span></p>` : html`<p class="fix-plain">${inlineMarkdown(check.why)}</p>`}
  ${fix?.steps
    ? html`<div class="platform-steps">${PLATFORMS.filter((p) => fix.steps?.[p]).map(
        (p) => html`<details class="platform"><summary>${PLATFORM_NAMES[p]}</summary><p>${fix.steps?.[p]}</p></details>`,
      )}</div>`
    : ''}
  ${fix?.snippet
    ? html`<div class="snippet-box"><pre class="snippet"><code id="${snippetId}">${fix.snippet}</code></pre>${opts.copy ? html`<button class="button button-quiet copy-button" type="button" data-copy="${snippetId}">Copy</button>` : ''}</div>`
    : ''}
  <details class="for-developer"><summary>For your developer</summary><div class="how">${renderHowTo(how)}</div></details>
  <p class="small"><a href="/checks/${check.id}">${opts.copy ? 'Learn more about this check' : html`Learn more about this check${fix?.snippet ? ' (with a copy button)' : ''}`}</a></p>`;
}
