// Can a shopper buy without creating an account? Looks for explicit wording on the fetched pages, or a protocol
// checkout without an identity-linking capability; we never open the checkout to find out.
import { defineCheck } from '../check.js';
import { findPhrase } from '../page-text.js';
import { siteText } from '../site-pages.js';
import { readAcp, readUcp } from '../../documents/protocol-documents.js';
import { ACCOUNT_WALL_PHRASES, GUEST_PHRASES } from '../checkout-words.js';

export default defineCheck({
  id: 'checkout_guest',
  label: 'Guest checkout',
  title: 'Guest checkout is available',
  failureTitle: 'Allow and announce guest checkout',
  why: 'An agent hands the shopper a cart; an account wall at checkout is where agent-assisted purchases are abandoned.',
  how: 'Let buyers check out without creating an account and say so on product or cart pages ("Checkout as guest"); account walls stop agent-assisted purchases.',
  fix: {
    plain: 'Let shoppers buy without creating an account, and say so, because an account wall is where purchases started by an assistant are abandoned.',
    effort: 'a few minutes',
    steps: {
      shopify: 'In your customer account settings, make accounts optional (not required) at checkout.',
      woocommerce: 'In WooCommerce → Settings → Accounts & Privacy, allow customers to place orders without an account.',
      bigcommerce: 'In your checkout settings, turn on guest checkout.',
      custom: 'Offer checkout without an account, and say "Checkout as guest" on the cart page.',
    },
  },
  run(a) {
    const text = siteText(a);
    const guest = findPhrase(text, GUEST_PHRASES);
    if (guest) return { status: 'pass', evidence: `The store says "${guest}".` };
    const ucp = readUcp(a);
    const acp = readAcp(a);
    const identity = (ucp?.capabilities ?? []).some((c) => c.includes('identity_linking'));
    if (ucp?.capabilities.includes('dev.ucp.shopping.checkout') && !identity) {
      return { status: 'pass', evidence: 'UCP checkout capability without an identity-linking requirement.' };
    }
    if (acp?.services.includes('checkout')) return { status: 'pass', evidence: 'ACP checkout service (buyer details are passed per session, no account needed).' };
    const wall = findPhrase(text, ACCOUNT_WALL_PHRASES);
    if (wall) return { status: 'fail', evidence: `The store says "${wall}".` };
    return { status: 'partial', evidence: 'No evidence either way: no "guest checkout" wording and no account wall on the fetched pages.' };
  },
});
