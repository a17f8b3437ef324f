// The result of a deep audit, computed once from its pages (each stored as a PageAudit when it was read): coverage
// per fact with its interval, pages grouped by template, one finding per template whose pages miss facts, the worst pages,
// and what changed since the account's previous audit of the store. Pure: the worker reads the pages and stores this.
import { AUDIT_FACTS, FACT_LABELS, type AuditFact, type PageAudit } from '../../scan/page-audit.js';
import { groupByTemplate } from '../../scan/documents/page-structure.js';
import type { AuditResult } from '../../schemas/deep-audit.js';
import { wilsonInterval } from './interval.js';

const MAX_FINDINGS = 50;
const MAX_WORST = 20;
const MAX_EXAMPLES = 5;
const MAX_NEWLY_FAILING = 20;

/** A planned page: its audit once read (null when it could not be). */
export interface AuditedPage {
  url: string;
  audit: PageAudit | null;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const percent = (n: number, of: number) => (of === 0 ? 0 : round1((100 * n) / of));

/** The pages' template ids ("T1" = the largest), by structure; null for pages not read as product pages. */
export function templatesOf(pages: readonly AuditedPage[]): { ids: (string | null)[]; templates: AuditResult['templates'] } {
  const groups = groupByTemplate(pages.map((p) => (p.audit?.product && p.audit.structure ? p.audit.structure : null)));
  const members = new Map<number, string[]>();
  groups.forEach((g, i) => g >= 0 && members.set(g, [...(members.get(g) ?? []), pages[i].url]));
  const bySize = [...members.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  const idOf = new Map(bySize.map(([g], i) => [g, `T${i + 1}`]));
  return {
    ids: groups.map((g) => idOf.get(g) ?? null),
    templates: bySize.map(([g, urls]) => ({ id: idOf.get(g)!, pages: urls.length, url_pattern: urlPattern(urls), example_url: urls[0] })),
  };
}

/** The path the URLs share, up to its last slash, then "*": "/shoes/*"; "/*" when they share nothing more. */
export function urlPattern(urls: readonly string[]): string {
  const paths = urls.map((u) => new URL(u).pathname);
  let common = paths[0] ?? '/';
  for (const p of paths) while (!p.startsWith(common)) common = common.slice(0, -1);
  return `${common.slice(0, common.lastIndexOf('/') + 1) || '/'}*`;
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

export function computeResult(pages: readonly AuditedPage[], found: number, previous: { id: string; result: AuditResult; pages: readonly AuditedPage[] } | null): AuditResult {
  const { ids, templates } = templatesOf(pages);
  const product = pages.map((p, i) => ({ ...p, template: ids[i] })).filter((p) => p.audit?.product === true);
  const audited = product.length;
  const sampled = pages.length < found;
  const coverage = AUDIT_FACTS.map((fact) => {
    const covered = product.filter((p) => p.audit!.facts[fact]).length;
    // The population is the product URLs found, scaled by the share of read pages that were product pages.
    const population = Math.max(audited, Math.round((found * audited) / Math.max(1, pages.filter((p) => p.audit).length)));
    return { fact, label: FACT_LABELS[fact], pages: covered, of: audited, percent: percent(covered, audited), interval: sampled ? wilsonInterval(covered, audited, population) : null };
  });

  const findings: AuditResult['findings'] = [];
  for (const t of templates) {
    const inTemplate = product.filter((p) => p.template === t.id);
    const missing = AUDIT_FACTS.flatMap((fact) => {
      const failing = inTemplate.filter((p) => !p.audit!.facts[fact]);
      if (failing.length === 0) return [];
      return [{ fact, label: FACT_LABELS[fact], pages_failing: failing.length, reason: mostCommon(failing.map((p) => p.audit!.reasons[fact] ?? '')) }];
    });
    if (missing.length === 0) continue;
    const failing = inTemplate.filter((p) => AUDIT_FACTS.some((f) => !p.audit!.facts[f]));
    findings.push({ template: t.id, url_pattern: t.url_pattern, pages_failing: failing.length, of: inTemplate.length, missing, example_urls: failing.slice(0, MAX_EXAMPLES).map((p) => p.url) });
  }
  findings.sort((a, b) => b.pages_failing - a.pages_failing);

  const missingOf = (a: PageAudit) => AUDIT_FACTS.filter((f) => !a.facts[f]);
  const worst = product
    .map((p) => ({ p, missing: missingOf(p.audit!) }))
    .filter((w) => w.missing.length > 0)
    .sort((a, b) => b.missing.length - a.missing.length)
    .slice(0, MAX_WORST)
    .map(({ p, missing }) => ({
      url: p.url,
      template: p.template,
      name: p.audit!.name,
      missing,
      reasons: missing.map((f) => `${FACT_LABELS[f]}: ${p.audit!.reasons[f] ?? 'missing'}`),
    }));

  return {
    pages_found: found,
    pages_audited: audited,
    pages_not_read: pages.filter((p) => p.audit === null || p.audit.error !== null).length,
    not_product_pages: pages.filter((p) => p.audit && p.audit.error === null && !p.audit.product).length,
    sampled,
    coverage,
    templates,
    findings: findings.slice(0, MAX_FINDINGS),
    worst_pages: worst,
    changes: previous ? changesSince(previous, coverage, product) : null,
  };
}

function changesSince(
  previous: { id: string; result: AuditResult; pages: readonly AuditedPage[] },
  coverage: AuditResult['coverage'],
  now: readonly AuditedPage[],
): NonNullable<AuditResult['changes']> {
  const before = new Map(previous.pages.filter((p) => p.audit?.product).map((p) => [p.url, p.audit!.facts]));
  const newlyFailing: { url: string; facts: string[] }[] = [];
  let compared = 0;
  let fixed = 0;
  for (const p of now) {
    const old = before.get(p.url);
    if (!old) continue;
    compared++;
    const lost = AUDIT_FACTS.filter((f: AuditFact) => old[f] && !p.audit!.facts[f]);
    if (lost.length > 0 && newlyFailing.length < MAX_NEWLY_FAILING) newlyFailing.push({ url: p.url, facts: lost });
    if (AUDIT_FACTS.some((f) => !old[f]) && AUDIT_FACTS.every((f) => p.audit!.facts[f])) fixed++;
  }
  const beforePct = new Map(previous.result.coverage.map((c) => [c.fact, c.percent]));
  return {
    previous_audit_id: previous.id,
    coverage: coverage.map((c) => {
      const was = beforePct.get(c.fact) ?? 0;
      return { fact: c.fact, before: was, after: c.percent, change: round1(c.percent - was) };
    }),
    pages_compared: compared,
    newly_failing: newlyFailing,
    fixed,
  };
}
