// Do product pages publish ratings or reviews in structured data? One sampled product page with an aggregateRating
// (value + count) or a review is enough: not every product has reviews yet.
import { defineCheck } from '../../check.js';
import { noPdpEvidence, sampledPdps } from '../product-pages.js';

export default defineCheck({
  id: 'trust_reviews',
  pillar: 'trust',
  order: 6,
  points: 1,
  partialPoints: 0,
  label: 'Ratings and reviews',
  title: 'Products publish ratings in structured data',
  failureTitle: 'Publish ratings in structured data',
  why: 'Agents weigh social proof when choosing between offers; ratings in the markup are the version they can read reliably.',
  how: 'Add `aggregateRating` (ratingValue, reviewCount) and a few `review` items from genuine customer reviews to product JSON-LD.',
  run(a) {
    const pdps = sampledPdps(a);
    if (pdps.length === 0) return { status: 'fail', evidence: noPdpEvidence(a) };
    const rated = pdps.find((p) => p.product?.hasReviews);
    if (rated) return { status: 'pass', evidence: `${rated.url}: aggregateRating or review in the ${rated.product?.markup} markup.` };
    return { status: 'fail', evidence: `No aggregateRating (with a count) or review on ${pdps.map((p) => p.url).join(', ')}.` };
  },
});
