// compare_stores: the scores and grades of 2 to 5 stores and the checks on which they differ, as a prompt.
import { z } from 'zod';
import { Host } from '../../schemas/params.js';
import { indexHost } from '../../lib/hosts.js';
import { MAX_COMPARED, MIN_COMPARED } from '../../schemas/comparison.js';
import { compareStored } from '../compare-stores.js';
import { definePrompt, inline } from './prompt.js';

export const MIN_STORES = MIN_COMPARED;
export const MAX_STORES = MAX_COMPARED;

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

export const compareStores = definePrompt({
  name: 'compare_stores',
  title: 'Compare how agent-ready stores are',
  description:
    'The scores and grades of 2 to 5 stores side by side and every check on which they differ, as a prompt to explain which store an AI shopping agent would find easiest to shop at, and why.',
  args: z.object({ hosts: HostList }),
  complete: { hosts: 'hosts' },
  async render({ hosts }, { db, baseUrl }) {
    const { stores, checks } = await compareStored(db, baseUrl, hosts);
    const found = stores.filter((s) => s.scanned);
    const missing = stores.filter((s) => !s.scanned).map((s) => s.host);
    const lines = [`Compare how ready these online stores are for AI shopping agents: ${hosts.join(', ')}.`, ''];
    if (found.length > 0) {
      lines.push('| Store | Score | Grade | Capped | Report |', '|---|---|---|---|---|');
      for (const s of found) lines.push(`| ${s.host} | ${s.score}/100 | ${s.grade} | ${s.capped ? 'yes' : 'no'} | ${s.report_url} |`);
      lines.push('');
    }
    if (missing.length > 0) {
      lines.push(`No public readiness report exists for ${missing.join(', ')}: ${missing.length === 1 ? 'it was' : 'they were'} never scanned, so leave ${missing.length === 1 ? 'it' : 'them'} out of the comparison or say that nothing is known.`, '');
    }
    if (found.length >= 2) {
      const differing = checks.filter((c) => c.differs);
      if (differing.length === 0) lines.push('Every check has the same status on these stores.');
      else {
        lines.push(`Checks where they differ (${differing.length}):`, '', `| Check | ${found.map((s) => s.host).join(' | ')} |`, `|---|${found.map(() => '---|').join('')}`);
        for (const c of differing) {
          lines.push(`| ${inline(c.label, 120)} (\`${c.id}\`) | ${c.results.map((r) => (r.status === null ? 'not checked' : `${r.status} ${r.points}/${r.max}`)).join(' | ')} |`);
        }
      }
      lines.push('', 'Explain which store an AI shopping agent would find easiest to discover, understand and buy from, and why, using these differences. Name the one change that would help each other store most.');
    } else {
      lines.push('Fewer than two of these stores have a report, so there is nothing to compare yet. Say so, and suggest that their owners scan them.');
    }
    return lines.join('\n');
  },
});
