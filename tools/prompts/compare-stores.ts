// compare_stores: the scores and grades of 2 to 5 stores and the checks on which they differ, as a prompt.
import { z } from 'zod';
import { Host } from '../../schemas/params.js';
import { indexHost } from '../../lib/hosts.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import type { ReadContext } from '../resources/resource.js';
import { definePrompt, inline } from './prompt.js';
import { readableReport } from '../stored-report.js';

export const MIN_STORES = 2;
export const MAX_STORES = 5;

function toIndexHost(raw: string): string | null {
  try {
    return indexHost(raw);
  } catch {
    return null;
  }
}

/** "a.com, b.com c.com" → the listed hosts in index form, duplicates dropped. */
const HostList = z
  .string()
  .max(MAX_STORES * 262)
  .transform((text, ctx) => {
    const hosts: string[] = [];
    for (const raw of text.split(/[\s,]+/).filter(Boolean)) {
      const host = Host.safeParse(raw).success ? toIndexHost(raw) : null;
      if (host === null) {
        ctx.addIssue({ code: 'custom', message: `hosts: "${inline(raw, 60)}" is not a host name` });
        return z.NEVER;
      }
      if (!hosts.includes(host)) hosts.push(host);
    }
    if (hosts.length < MIN_STORES || hosts.length > MAX_STORES) {
      ctx.addIssue({ code: 'custom', message: `hosts: name ${MIN_STORES} to ${MAX_STORES} different stores, separated by commas` });
      return z.NEVER;
    }
    return hosts;
  })
  .describe(`${MIN_STORES} to ${MAX_STORES} store host names separated by commas, e.g. "shop-a.example, shop-b.example".`);

async function reportsOf(hosts: string[], { db }: ReadContext): Promise<Map<string, ScanResult>> {
  const latest = await db.latestByHosts(hosts);
  const scans = await Promise.all(hosts.map(async (h) => [h, latest.has(h) ? await db.getScan(latest.get(h)!.scanId) : null] as const));
  return new Map(scans.flatMap(([h, scan]) => (scan ? [[h, readableReport(scan.report)] as const] : [])));
}

export const compareStores = definePrompt({
  name: 'compare_stores',
  title: 'Compare how agent-ready stores are',
  description:
    'The scores and grades of 2 to 5 stores side by side and every check on which they differ, as a prompt to explain which store an AI shopping agent would find easiest to shop at, and why.',
  args: z.object({ hosts: HostList }),
  complete: { hosts: 'hosts' },
  async render({ hosts }, ctx) {
    const reports = await reportsOf(hosts, ctx);
    const found = hosts.filter((h) => reports.has(h));
    const missing = hosts.filter((h) => !reports.has(h));
    const lines = [`Compare how ready these online stores are for AI shopping agents: ${hosts.join(', ')}.`, ''];
    if (found.length > 0) {
      lines.push('| Store | Score | Grade | Capped | Report |', '|---|---|---|---|---|');
      for (const h of found) {
        const r = reports.get(h)!;
        lines.push(`| ${h} | ${r.score}/100 | ${r.grade} | ${r.capped ? 'yes' : 'no'} | ${r.report_url} |`);
      }
      lines.push('');
    }
    if (missing.length > 0) {
      lines.push(`No public readiness report exists for ${missing.join(', ')}: ${missing.length === 1 ? 'it was' : 'they were'} never scanned, so leave ${missing.length === 1 ? 'it' : 'them'} out of the comparison or say that nothing is known.`, '');
    }
    if (found.length >= 2) {
      const statuses = new Map<string, { label: string; by: Map<string, string> }>();
      for (const h of found) {
        for (const c of reports.get(h)!.pillars.flatMap((p) => p.checks)) {
          const row = statuses.get(c.id) ?? { label: inline(c.label, 120), by: new Map<string, string>() };
          row.by.set(h, `${c.status} ${c.points}/${c.max}`);
          statuses.set(c.id, row);
        }
      }
      const differing = [...statuses.entries()].filter(([, row]) => new Set(found.map((h) => row.by.get(h)?.split(' ')[0] ?? 'not checked')).size > 1);
      if (differing.length === 0) lines.push('Every check has the same status on these stores.');
      else {
        lines.push(`Checks where they differ (${differing.length}):`, '', `| Check | ${found.join(' | ')} |`, `|---|${found.map(() => '---|').join('')}`);
        for (const [id, row] of differing) lines.push(`| ${row.label} (\`${id}\`) | ${found.map((h) => row.by.get(h) ?? 'not checked').join(' | ')} |`);
      }
      lines.push('', 'Explain which store an AI shopping agent would find easiest to discover, understand and buy from, and why, using these differences. Name the one change that would help each other store most.');
    } else {
      lines.push('Fewer than two of these stores have a report, so there is nothing to compare yet. Say so, and suggest that their owners scan them.');
    }
    return lines.join('\n');
  },
});
