// Does the store show which payment methods it accepts (wallets, BNPL, card brands) in its HTML, in
// acceptedPaymentMethod, or as UCP payment handlers? Agents match them against what the shopper can use.
import { defineCheck } from '../check.js';
import { siteBodies, siteEntities } from '../site-pages.js';
import { readUcp } from '../../documents/protocol-documents.js';
import { hasProp } from '../../documents/structured-data/index.js';

const METHODS: [RegExp, string][] = [
  [/shop[ _-]?pay\b/i, 'Shop Pay'],
  [/apple[ _-]?pay/i, 'Apple Pay'],
  [/google[ _-]?pay|\bgpay\b/i, 'Google Pay'],
  [/\bpaypal\b/i, 'PayPal'],
  [/\bklarna\b/i, 'Klarna'],
  [/\bafterpay\b|\bclearpay\b/i, 'Afterpay'],
  [/js\.stripe\.com/i, 'Stripe'],
  [/\bmastercard\b/i, 'Mastercard'],
  [/\bvisa\b/i, 'Visa'],
  [/american express|\bamex\b/i, 'American Express'],
  [/\bmaestro\b/i, 'Maestro'],
  [/\biDEAL\b/, 'iDEAL'],
];

export default defineCheck({
  id: 'checkout_payment_methods',
  label: 'Payment methods visible',
  title: 'Accepted payment methods are visible',
  failureTitle: 'Show accepted payment methods',
  why: 'Agents prefer stores whose payment options match what the shopper has; methods they cannot see are methods they cannot match.',
  how: 'List wallets and cards (Shop Pay, Apple Pay, Google Pay, PayPal, Klarna, cards) on product pages or in the footer, and declare `acceptedPaymentMethod` or UCP payment handlers; agents prefer stores whose payment options match the buyer\'s.',
  fix: {
    plain: 'Show which payment methods you accept (cards, wallets, pay later), so assistants can match them to what the shopper has.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Turn on the payment icons in your theme’s footer settings (most themes offer this); they follow the methods you enabled.',
      woocommerce: 'Show the payment icons in the footer or on product pages (many themes and payment plugins offer this).',
      bigcommerce: 'Show the payment icons in the footer (many themes offer this in the theme settings).',
      custom: 'List the methods as text or labelled icons in the footer or on product pages, and add them to your product data.',
    },
  },
  run(a) {
    const handlers = readUcp(a)?.paymentHandlers ?? [];
    if (handlers.length > 0) return { status: 'pass', evidence: `UCP payment handlers: ${handlers.slice(0, 5).join(', ')}.` };
    const declared = siteEntities(a).some((e) => hasProp(e, 'acceptedPaymentMethod'));
    if (declared) return { status: 'pass', evidence: 'acceptedPaymentMethod in the structured data.' };
    const found = new Set<string>();
    for (const body of siteBodies(a)) for (const [re, name] of METHODS) if (re.test(body)) found.add(name);
    if (found.size > 0) return { status: 'pass', evidence: `Payment methods in the HTML: ${[...found].join(', ')}.` };
    return { status: 'fail', evidence: 'No payment method named in the HTML, in acceptedPaymentMethod or in UCP payment handlers.' };
  },
});
