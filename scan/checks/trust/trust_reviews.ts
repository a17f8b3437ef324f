// Do product pages publish ratings or reviews in structured data? One sampled product page with an aggregateRating
// (value + count) or a review is enough: not every product has reviews yet.
import { defineCheck } from '../check.js';
import { noPdpOutcome, sampledPdps } from '../product-pages.js';

export default defineCheck({
  id: 'trust_reviews',
  label: 'Ratings and reviews',
  title: 'Products publish ratings in structured data',
  failureTitle: 'Publish ratings in structured data',
  why: 'Agents weigh social proof when choosing between offers; ratings in the markup are the version they can read reliably.',
  how: 'Add `aggregateRating` (ratingValue, reviewCount) and a few `review` items from genuine customer reviews to product JSON-LD.',
  fix: {
    plain: 'Publish your genuine customer ratings in a form agents read, because they weigh what other shoppers say when choosing a store.',
    effort: 'about an hour',
    steps: {
      shopify: 'Use a reviews app that adds ratings to the product data (most say so in their description).',
      woocommerce: 'Turn on product reviews (WooCommerce → Settings → Products); WooCommerce adds the rating to the product data once a product has reviews.',
      bigcommerce: 'Turn on product reviews, or use a reviews app that adds ratings to the product data.',
      custom: 'Add the average rating and review count, and a few genuine reviews, to each product’s data, as below.',
    },
    snippet: '"aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.6", "reviewCount": "128"}',
  },
  run(a) {
    const pdps = sampledPdps(a);
    if (pdps.length === 0) return noPdpOutcome(a);
    const rated = pdps.find((p) => p.product?.hasReviews);
    if (rated) return { status: 'pass', evidence: `${rated.url}: aggregateRating or review in the ${rated.product?.markup} markup.` };
    return { status: 'fail', evidence: `No aggregateRating (with a count) or review on ${pdps.map((p) => p.url).join(', ')}.` };
  },
});
