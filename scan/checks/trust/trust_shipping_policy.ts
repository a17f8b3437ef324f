// Are shipping costs and destinations machine-readable: OfferShippingDetails with a destination country and a rate,
// or at least a linked shipping page? Delivery cost is part of the price an agent compares.
import { defineCheck } from '../check.js';
import type { Entity } from '../../artifacts.js';
import { snippet } from '../evidence.js';
import { linkHaystack } from '../page-text.js';
import { siteEntities, sitePages } from '../site-pages.js';
import { entitiesOf, hasProp, propEntities, propText } from '../../documents/structured-data/index.js';

const SHIPPING_WORDS = ['shipping', 'delivery', 'versand', 'lieferung', 'livraison', 'envío', 'envio', 'spedizion', 'consegna', 'verzend', 'bezorg', 'wysyłka', 'dostawa', 'frakt', 'leverans', 'levering', 'doprava'];

function destination(d: Entity): string | null {
  for (const dest of [...propEntities(d, 'shippingDestination')]) {
    const c = propText(dest, 'addressCountry');
    if (c) return c;
  }
  return null;
}

function rate(d: Entity): string | null {
  for (const r of propEntities(d, 'shippingRate')) {
    const value = propText(r, 'value') ?? propText(r, 'maxValue');
    const currency = propText(r, 'currency');
    if (value !== null && currency) return `${value} ${currency}`;
  }
  return null;
}

export default defineCheck({
  id: 'trust_shipping_policy',
  label: 'Machine-readable shipping',
  title: 'Shipping costs and destinations are published as structured data',
  failureTitle: 'Publish shipping costs and times as structured data',
  why: 'Agents compare the delivered price and delivery time; OfferShippingDetails lets them do that without guessing from a shipping page.',
  how: 'Add `shippingDetails` (`OfferShippingDetails`) with `shippingDestination.addressCountry`, `shippingRate` (value + currency) and `deliveryTime` (`handlingTime` and `transitTime` in days) to each Offer, one node per destination zone, and link a shipping page from the footer.',
  fix: {
    plain: 'State your shipping costs and delivery times where agents can read them, so they can give shoppers the delivered price before buying.',
    effort: 'about an hour',
    steps: {
      shopify: 'Set up your shipping rates in Settings → Shipping and delivery, publish a shipping policy page and link it from the footer; a developer or a structured data app adds the shipping details to the product data.',
      woocommerce: 'Publish a shipping page linked from the footer, and add the shipping details to your product data with your SEO plugin or a developer.',
      bigcommerce: 'Publish a shipping page linked from the footer, and have a developer add the shipping details to the product data in the theme.',
      custom: 'Publish a shipping page linked from the footer, and add shipping details (destination, rate, delivery time) to each offer in your product data.',
    },
  },
  run(a) {
    const details = entitiesOf(siteEntities(a), ['OfferShippingDetails']);
    for (const d of details) {
      const country = destination(d);
      const cost = rate(d);
      if (country && cost) {
        const time = hasProp(d, 'deliveryTime') ? ', deliveryTime given' : ', no deliveryTime';
        return { status: 'pass', evidence: `OfferShippingDetails: ${snippet(country, 40)}, rate ${snippet(cost, 40)}${time}.` };
      }
    }
    const link = sitePages(a)
      .flatMap((p) => p.links)
      .find((l) => {
        const hay = linkHaystack(l);
        return SHIPPING_WORDS.some((w) => hay.includes(w));
      });
    if (details.length > 0) {
      return {
        status: 'partial',
        evidence: `OfferShippingDetails without shippingDestination.addressCountry or a shippingRate with currency${link ? `; shipping page linked: ${snippet(link.url ?? link.href, 100)}` : ''}.`,
      };
    }
    if (link) return { status: 'partial', evidence: `Only a linked shipping page: "${snippet(link.text, 60)}" → ${snippet(link.url ?? link.href, 100)}.` };
    return { status: 'fail', evidence: 'No OfferShippingDetails and no shipping/delivery page linked from the homepage or product pages.' };
  },
});
