// Which product the journey walks, and whether a scan walks at all: only a scan of the store's root does, and not
// when the store's robots.txt has a group of its own for our scanner that keeps it off the product or the cart.
import type { Artifacts } from '../artifacts.js';
import { SCANNER_TOKEN } from '../documents/robots.js';
import { isPublicEntry } from '../../lib/public-entry.js';
import type { PageProduct } from './catalog.js';

/** The first sampled product page with a product on it; else a product link that answered with an app shell. */
export function journeyProduct(a: Artifacts): (Omit<PageProduct, 'name'> & { name: string | null }) | null {
  for (const pdp of a.pdps) {
    if (!pdp.resource.ok || !pdp.product) continue;
    const p = pdp.product;
    return { url: pdp.resource.res.url, name: p.name?.value ?? null, price: p.price?.value ?? null, currency: p.currency?.value ?? null, availability: p.availability?.value ?? null };
  }
  const shell = (a.productMisses ?? []).find((m) => m.resource.ok);
  return shell?.resource.ok ? { url: shell.resource.res.url, name: null, price: null, currency: null, availability: null } : null;
}

/** Why this scan does not walk the store, or null. */
export function journeyRefusal(a: Artifacts, scanned: URL, productUrl: string | null): string | null {
  if (!isPublicEntry(scanned)) return `Not run: only a scan of the store's root (${scanned.origin}/) walks a product to the checkout.`;
  const own = a.robots.groups.includes(SCANNER_TOKEN);
  const kept = own && [productUrl, new URL('/cart', scanned).href].some((u) => u !== null && !a.robots.isAllowed(SCANNER_TOKEN, u));
  return kept ? `Not run: the store's robots.txt keeps our scanner (${SCANNER_TOKEN}) off its product or cart pages.` : null;
}
