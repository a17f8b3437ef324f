// Is the return policy machine-readable: a MerchantReturnPolicy node (on an Offer or the Organization) with country
// and category, or at least a linked returns page? Agents answer "can I return it?" before recommending a store.
import { defineCheck } from '../check.js';
import type { Entity } from '../../artifacts.js';
import { snippet } from '../evidence.js';
import { linkHaystack } from '../page-text.js';
import { siteEntities, sitePages } from '../site-pages.js';
import { entitiesOf, hasProp, propText } from '../../documents/structured-data/index.js';

const RETURN_WORDS = ['return', 'retour', 'retur', 'refund', 'exchange', 'widerruf', 'rücksend', 'ruecksend', 'rückgabe', 'devoluci', 'devoluç', 'reembolso', 'rimbors', 'zwrot', 'remboursement'];

function complete(p: Entity): boolean {
  if (hasProp(p, 'merchantReturnLink')) return true;
  const category = propText(p, 'returnPolicyCategory') ?? '';
  if (!hasProp(p, 'applicableCountry') || category === '') return false;
  // A finite window needs its length (schema.org merchantReturnDays).
  return !category.includes('FiniteReturnWindow') || hasProp(p, 'merchantReturnDays');
}

export default defineCheck({
  id: 'trust_return_policy',
  label: 'Machine-readable return policy',
  title: 'The return policy is published as structured data',
  failureTitle: 'Publish your return policy as structured data',
  why: 'Shoppers ask agents whether they can return an item; a MerchantReturnPolicy node answers that without the agent reading legal prose.',
  how: 'Add a `MerchantReturnPolicy` to `Organization` (or to each `Offer` via `hasMerchantReturnPolicy`) with `applicableCountry`, `returnPolicyCategory` (e.g. `MerchantReturnFiniteReturnWindow`), `merchantReturnDays`, `returnMethod` and `returnFees`, and link a plain-HTML returns page from the footer.',
  fix: {
    plain: 'State your return policy where agents can read it (return window, how, and who pays), so they can tell shoppers before buying.',
    effort: 'about an hour',
    steps: {
      shopify: 'Settings → Policies: fill in the return rules (window, fees, method); Shopify publishes them for agents and links the policy page.',
      woocommerce: 'Publish a returns page, link it from the footer, and add the return policy to your structured data with your SEO plugin or theme.',
      bigcommerce: 'Publish a returns page and link it from the footer; add the return policy to the product structured data in the theme.',
      custom: 'Publish a returns page linked from the footer, and add a MerchantReturnPolicy to your Organization or product data.',
    },
  },
  run(a) {
    const policies = entitiesOf(siteEntities(a), ['MerchantReturnPolicy']);
    const good = policies.find(complete);
    if (good) {
      const days = propText(good, 'merchantReturnDays');
      const desc = [propText(good, 'applicableCountry'), propText(good, 'returnPolicyCategory'), days ? `${days} days` : null, propText(good, 'merchantReturnLink')]
        .filter(Boolean)
        .join(', ');
      return { status: 'pass', evidence: `MerchantReturnPolicy: ${snippet(desc)}.` };
    }
    const link = sitePages(a)
      .flatMap((p) => p.links)
      .find((l) => {
        const hay = linkHaystack(l);
        return RETURN_WORDS.some((w) => hay.includes(w));
      });
    if (policies.length > 0) {
      return {
        status: 'partial',
        evidence: `MerchantReturnPolicy without applicableCountry + returnPolicyCategory (+ merchantReturnDays) or merchantReturnLink${link ? `; returns page linked: ${snippet(link.url ?? link.href, 100)}` : ''}.`,
      };
    }
    if (link) return { status: 'partial', evidence: `Only a linked returns page: "${snippet(link.text, 60)}" → ${snippet(link.url ?? link.href, 100)}.` };
    return { status: 'fail', evidence: 'No MerchantReturnPolicy and no returns/refund page linked from the homepage or product pages.' };
  },
});
