// Site-wide signals: the home page plus the sampled product pages, their bodies, entities and visible text.
import type { Artifacts, Entity, PageFacts } from '../artifacts.js';
import { is2xx, responseOf } from '../documents/resources.js';

/** Home page plus sampled PDP pages, for site-wide signals (links, texts, entities). */
export function sitePages(a: Artifacts): PageFacts[] {
  const pages: PageFacts[] = [];
  if (a.homePage) pages.push(a.homePage);
  for (const p of a.pdps) if (p.page && p.page !== a.homePage) pages.push(p.page);
  return pages;
}

/** Raw HTML bodies of the home page and sampled PDPs (capped), for markers that are not visible text. */
export function siteBodies(a: Artifacts, cap = 2_000_000): string[] {
  const out: string[] = [];
  const home = responseOf(a.home);
  if (home && is2xx(home.status)) out.push(home.body.slice(0, cap));
  for (const p of a.pdps) {
    const res = responseOf(p.resource);
    if (res && is2xx(res.status) && res !== home) out.push(res.body.slice(0, cap));
  }
  return out;
}

/** Every entity on the home page and the sampled PDPs. */
export function siteEntities(a: Artifacts): Entity[] {
  return sitePages(a).flatMap((p) => p.entities);
}

/** Lower-case visible text of the home page and sampled PDPs, for phrase lookups. */
export function siteText(a: Artifacts): string {
  return sitePages(a)
    .map((p) => p.visibleText.slice(0, 300_000))
    .join('\n')
    .toLowerCase();
}
