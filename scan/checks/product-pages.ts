// The sampled product pages and how product checks aggregate over them (docs/checks.md §2 "Product checks aggregate
// over the sampled PDPs").
import type { Artifacts, Fact, PageFacts, ProductFacts, Resource } from '../artifacts.js';
import type { CheckOutcome, CheckStatus } from './check.js';
import { NO_PRODUCT_PAGE, describe } from './evidence.js';
import { resourceUrl } from '../documents/resources.js';

export interface SampledPdp {
  url: string;
  page: PageFacts | null;
  product: ProductFacts | null;
  resource: Resource;
}

/** The sampled product pages that were received and parsed. */
export function sampledPdps(a: Artifacts): SampledPdp[] {
  return a.pdps
    .filter((p) => p.page !== null || p.product !== null)
    .map((p) => ({
      url: p.page?.url ?? p.product?.url ?? resourceUrl(p.resource),
      page: p.page,
      product: p.product,
      resource: p.resource,
    }));
}

export interface PdpVerdict {
  status: CheckStatus;
  evidence: string;
}

/**
 * pass if every sampled PDP passes, partial if at least one passes or any is partial, fail otherwise; with no PDP,
 * fail with "no product page found". Checks without a partial grade (partialPoints 0) turn partial into fail.
 */
export function aggregatePdps(
  a: Artifacts,
  judge: (pdp: SampledPdp) => PdpVerdict,
  opts: { partial?: boolean } = {},
): CheckOutcome {
  const pdps = sampledPdps(a);
  if (pdps.length === 0) return noPdpOutcome(a);
  const verdicts = pdps.map((p) => ({ p, v: judge(p) }));
  let status: CheckStatus;
  if (verdicts.every(({ v }) => v.status === 'pass')) status = 'pass';
  else if (verdicts.some(({ v }) => v.status !== 'fail')) status = 'partial';
  else status = 'fail';
  if (status === 'partial' && opts.partial === false) status = 'fail';
  const evidence = verdicts.map(({ p, v }) => `${p.url}: ${v.evidence}`).join('; ');
  return { status, evidence };
}

/** A check that could not judge the store for want of a product page (scan/checks/root-causes.ts groups them). */
export function noPdpOutcome(a: Artifacts): CheckOutcome {
  return { status: 'fail', evidence: noPdpEvidence(a), needs: 'product_page' };
}

/** "no product page found", with what was tried so a merchant can see why. */
export function noPdpEvidence(a: Artifacts): string {
  const tried = a.pdps.map((p) => describe(p.resource));
  return tried.length > 0 ? `${NO_PRODUCT_PAGE} (tried ${tried.slice(0, 3).join(', ')})` : NO_PRODUCT_PAGE;
}

/** Values read from structured markup (not from OpenGraph, other meta tags or visible HTML). */
export const STRUCTURED: ReadonlySet<string> = new Set(['json-ld', 'microdata', 'rdfa']);

/** The price the page's markup gives, also where the buy box outvoted it or left the item's price unread. */
export function markupPriceOf(product: ProductFacts | null | undefined): Fact<number> | null {
  return product?.markupPrice ? { value: product.markupPrice.value, source: product.markupPrice.source } : (product?.price ?? null);
}
