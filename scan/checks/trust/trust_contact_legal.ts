// Are a contact route and legal pages (terms or privacy) linked from the homepage or a product page? Agents look for
// these before recommending a merchant they do not know.
import { defineCheck } from '../check.js';
import type { LinkInfo } from '../../artifacts.js';
import { snippet } from '../evidence.js';
import { linkHaystack } from '../page-text.js';
import { sitePages } from '../site-pages.js';

const CONTACT_WORDS = ['contact', 'kontakt', 'contatt', 'contacto', 'nous-contacter', 'customer-service', 'customer service', 'kundenservice', 'service client', 'help center', 'support'];
const LEGAL_WORDS = ['terms', 'conditions', 'privacy', 'agb', 'datenschutz', 'impressum', 'cgv', 'mentions-legales', 'mentions légales', 'privacidad', 'condiciones', 'legal', 'policies/terms-of-service', 'privacy-policy', 'voorwaarden', 'termini', 'regulamin'];

function matches(l: LinkInfo, words: string[]): boolean {
  const hay = linkHaystack(l);
  return words.some((w) => hay.includes(w));
}

export default defineCheck({
  id: 'trust_contact_legal',
  label: 'Contact and legal pages',
  title: 'Contact, terms and privacy pages are linked',
  failureTitle: 'Link contact, terms and privacy pages',
  why: 'A reachable merchant with published terms is one an agent can recommend with confidence; missing contact or legal pages look like a risky shop.',
  how: 'Put a contact page (or `mailto:`/`tel:` links), terms of sale and privacy policy in the site footer as plain links; agents check these before recommending an unknown merchant.',
  fix: {
    plain: 'Link a contact page, your terms of sale and your privacy policy from the footer, so agents see a merchant they can reach and trust.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Fill in Settings → Policies and create a contact page, then add all three to the footer menu in Content → Menus (or Online Store → Navigation).',
      woocommerce: 'Publish the pages (WordPress can draft a privacy policy in Settings → Privacy) and add them to the footer menu.',
      bigcommerce: 'Publish the pages under Storefront → Web pages and show them in the footer.',
      custom: 'Add plain links to the contact page (or an e-mail or phone link), terms of sale and privacy policy in the footer of every page.',
    },
  },
  run(a) {
    const links = sitePages(a).flatMap((p) => p.links);
    const contact = links.find((l) => /^(mailto|tel):/i.test(l.href.trim())) ?? links.find((l) => matches(l, CONTACT_WORDS));
    const legal = links.find((l) => matches(l, LEGAL_WORDS));
    const show = (l: LinkInfo) => `"${snippet(l.text, 40)}" → ${snippet(l.url ?? l.href, 80)}`;
    if (contact && legal) return { status: 'pass', evidence: `Contact ${show(contact)}; legal ${show(legal)}.` };
    if (contact) return { status: 'partial', evidence: `Contact ${show(contact)}; no terms or privacy link.` };
    if (legal) return { status: 'partial', evidence: `Legal ${show(legal)}; no contact page, mailto: or tel: link.` };
    return { status: 'fail', evidence: `No contact, terms or privacy link among ${links.length} links on the homepage and product pages.` };
  },
});
