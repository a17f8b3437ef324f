// Does the homepage say who the merchant is: an Organization (or OnlineStore/LocalBusiness) node with name, url,
// logo and a way to reach or verify it? Agents check the seller before sending a shopper to an unknown store.
import { defineCheck } from '../check.js';
import { quote } from '../evidence.js';
import { entitiesOf, hasProp, propText } from '../../documents/structured-data/index.js';

const ORG_TYPES = ['Organization', 'Corporation', 'OnlineStore', 'OnlineBusiness', 'Store', 'LocalBusiness', 'ClothingStore', 'ElectronicsStore'];
const CONTACT = ['contactPoint', 'email', 'telephone', 'sameAs', 'address'];

export default defineCheck({
  id: 'trust_organization',
  label: 'Merchant identity',
  title: 'The homepage describes the business behind the store',
  failureTitle: 'Describe your business with Organization markup',
  why: 'Before recommending an unfamiliar store an agent checks who runs it; Organization markup with contacts and profiles lets it verify you.',
  how: 'Add `Organization` (or `OnlineStore`) JSON-LD on the homepage with `name`, `url`, `logo`, `sameAs` profiles and a `contactPoint` (customer service e-mail/phone), so agents can verify who they are buying from.',
  fix: {
    plain: 'Say who runs the store (name, logo, customer service contact, social profiles) in a form agents read, so they can check you before recommending you.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Add the block below to theme.liquid (Online Store → Themes → Edit code) for the home page, with your own details; some themes and SEO apps include it.',
      woocommerce: 'In your SEO plugin’s site settings, say the site is an organisation and fill in name, logo and social profiles; add the contact details.',
      bigcommerce: 'Add the block below to the home page template of your theme, with your own details.',
      custom: 'Add the block below to the home page, with your own details.',
    },
    snippet: '<script type="application/ld+json">\n{"@context": "https://schema.org", "@type": "Organization", "name": "Your store",\n "url": "https://your-store.example/", "logo": "https://your-store.example/logo.png",\n "sameAs": ["https://www.instagram.com/yourstore"],\n "contactPoint": {"@type": "ContactPoint", "contactType": "customer service", "email": "help@your-store.example"}}\n</script>',
  },
  run(a) {
    const orgs = entitiesOf(a.homePage?.entities ?? [], ORG_TYPES).filter((o) => propText(o, 'name'));
    if (orgs.length === 0) return { status: 'fail', evidence: 'No Organization, OnlineStore or LocalBusiness markup with a name on the homepage.' };
    const scored = orgs.map((o) => {
      const has = ['url', 'logo', ...CONTACT].filter((p) => hasProp(o, p));
      return { o, has, full: hasProp(o, 'url') && hasProp(o, 'logo') && CONTACT.some((p) => hasProp(o, p)) };
    });
    const best = scored.find((s) => s.full) ?? scored.sort((x, y) => y.has.length - x.has.length)[0];
    const desc = `${best.o.types[0]} ${quote(propText(best.o, 'name'), 60)} (${best.o.source}) with ${best.has.length > 0 ? best.has.join(', ') : 'name only'}`;
    if (best.full) return { status: 'pass', evidence: `${desc}.` };
    return { status: 'partial', evidence: `${desc}; pass needs url, logo and one of ${CONTACT.join(', ')}.` };
  },
});
