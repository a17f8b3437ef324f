// The terminal rendering of an AuditResult for `scan <url>` (README.md "Command line"): score and grade,
// the cap, one text bar per pillar, what failed or half-passed with its evidence, and the fixes by points.
// Plain text only (no colours), so it reads the same in a CI log and in a terminal.
import type { AuditResult } from '../schemas/scan-result.js';
import { availabilityBasisPhrase } from '../scan/products/availability-basis.js';
import { CAP_SCORE } from '../scan/checks/rubric.js';

const BAR_WIDTH = 10;
const CAP_TEXT: Record<string, string> = {
  H1: 'robots.txt blocks the live AI shopping agents',
  H2: 'a bot wall blocks AI agent user agents',
  H3: 'the storefront is closed to automated visitors',
};

export function bar(score: number, max: number, width = BAR_WIDTH): string {
  const filled = max > 0 ? Math.round((Math.min(Math.max(score, 0), max) / max) * width) : 0;
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

/** Terminal control characters from store content are dropped so a hostile page cannot rewrite the terminal. */
function clean(s: string, max = 300): string {
  const t = s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function renderReport(r: AuditResult): string {
  const out: string[] = [];
  out.push(`Agent readiness of ${clean(r.host, 120)}`);
  out.push(`Scanned ${clean(r.url, 200)} at ${r.scanned_at} in ${(r.duration_ms / 1000).toFixed(1)} s (rubric ${r.rubric_version})`);
  out.push('');
  if (r.address_note) out.push(clean(r.address_note, 300));
  out.push(`Score  ${r.score}/100   Grade ${r.grade}`);
  if (r.capped) {
    const why = r.cap_reason ? (CAP_TEXT[r.cap_reason] ?? r.cap_reason) : 'a hard block';
    out.push('');
    out.push(`!! CAPPED at ${CAP_SCORE}: ${why} (${r.cap_reason ?? 'hard block'}). Fix this first; nothing else counts until agents get in.`);
  }
  for (const cause of r.root_causes ?? []) {
    out.push('');
    out.push(`>> START HERE: ${clean(cause.title, 160)} (fix ${cause.check_id}: up to +${cause.points} pts)`);
    out.push(`   ${clean(cause.detail)}`);
    out.push(`   Until it is fixed, ${cause.blocks.length} checks are not assessed: ${cause.blocks.join(', ')}.`);
  }
  out.push('');

  const labelWidth = Math.max(...r.pillars.map((p) => p.label.length), 0) + 2;
  for (const p of r.pillars) out.push(`${p.label.padEnd(labelWidth)} ${bar(p.score, p.max)} ${p.score}/${p.max}`);

  const findings = r.pillars.flatMap((p) => p.checks.filter((c) => c.status !== 'pass').map((c) => ({ pillar: p.label, c })));
  if (findings.length > 0) {
    out.push('');
    out.push('Findings');
    for (const { pillar, c } of findings) {
      if (c.blocked_by) continue; // listed once under START HERE
      const mark = c.status === 'fail' ? 'FAIL   ' : 'PARTIAL';
      out.push(`  ${mark} ${clean(c.label, 120)} (${pillar}, ${c.points}/${c.max})${c.hard_block && c.status === 'fail' ? ' [hard block]' : ''}`);
      if (c.evidence) out.push(`          ${clean(c.evidence)}`);
    }
  }

  if (r.top_fixes.length > 0) {
    out.push('');
    out.push('Top fixes');
    r.top_fixes.forEach((f, i) => {
      out.push(`  ${String(i + 1).padStart(2)}. +${f.points} pts  ${clean(f.title, 160)}`);
      out.push(`         ${clean(f.how, 400)}`);
    });
  }

  const view = r.browser_view;
  if (view) {
    out.push('');
    out.push('What browser agents see (not scored)');
    out.push(`  ${clean(view.note, 300)}`);
    for (const f of view.findings) out.push(`  - ${clean(f.title, 120)}${f.page_url ? ` (${clean(f.page_url, 120)})` : ''}: ${clean(f.detail, 200)}`);
    if (view.status === 'rendered' && view.findings.length === 0) out.push('  No browser findings.');
  }

  const seen = r.products.filter((p) => p.name);
  if (seen.length > 0) {
    out.push('');
    out.push('What agents see');
    for (const p of seen) {
      const price = p.price
        ? `${p.price.value} ${p.currency ? p.currency.value : '(currency unknown)'}${p.price_period ? ` per ${p.price_period.value}` : ''}${
            p.price_excl_tax ? ` (${p.price_excl_tax.value} excl. tax)` : ''
          }${p.price.value === 0 ? ' (read as free)' : ''}`
        : p.price_not_read
          ? `price not read: ${p.price_not_read}`
          : 'no price';
      const basis = p.availability?.source === 'html' && p.availability_basis ? `, ${availabilityBasisPhrase(p.availability_basis)}` : '';
      out.push(`  ${clean(p.name?.value ?? '', 80)} · ${clean(price, p.price_not_read ? 240 : 60)} · ${clean(p.availability?.value ?? 'no availability', 40)}${basis} (${p.markup})`);
    }
  }
  const agents = r.agents?.status === 'checked' ? r.agents.rows.filter((a) => a.got_page === false || a.same_facts === false) : [];
  if (agents.length > 0) {
    out.push('');
    out.push('AI agents that did not get what a browser gets');
    for (const a of agents) {
      const missed = (['home', 'product'] as const).flatMap((p) => (a[p] && a[p].access !== 'served' ? [`${a[p].access} on the ${p} page (${a[p].status ?? 'no answer'})`] : []));
      const facts = a.same_facts === false ? [`shown ${(a.product?.differences ?? []).join(', ')}`] : [];
      out.push(`  ${clean(a.agent, 40)}: ${clean([...missed, ...facts].join('; '), 300)}`);
    }
  }
  out.push('');
  return out.join('\n');
}
