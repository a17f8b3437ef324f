// A report as GitHub-flavoured Markdown for a pull request comment, a job summary or `scan --format markdown`:
// score, grade, the gates' verdict, what changed since the baseline and the top fixes. Every value from a report
// goes through lib/untrusted-markdown.ts (a report file is input like any other), so none can add links, HTML or
// table cells of its own.
import { inlineCode, linkText, safeHttpUrl } from '../lib/untrusted-markdown.js';
import { diffReports } from '../monitoring/history.js';
import type { CiReport } from './report.js';
import type { GateResult } from './gates.js';

export interface SummaryEntry {
  report: CiReport;
  baseline?: CiReport | null;
  gate?: GateResult;
  /** Where the full report is: the hosted report page, else nothing (a local scan has no page). */
  reportUrl?: string | null;
}

const STATUS_WORD: Record<string, string> = { pass: '✅ pass', partial: '🟡 partial', fail: '❌ fail' };
const statusWord = (s: string | null) => (s === null ? '—' : (STATUS_WORD[s] ?? linkText(s, 20)));
const TOP_FIXES = 5;

function change(entry: SummaryEntry): string {
  if (!entry.baseline) return 'no baseline';
  const d = entry.report.score - entry.baseline.score;
  return `${d > 0 ? `+${d}` : d === 0 ? '±0' : String(d)} (was ${entry.baseline.score}, ${entry.baseline.grade})`;
}

function verdict(gate: GateResult | undefined): string {
  if (!gate || gate.evaluated.length === 0) return 'no gate';
  return gate.passed ? '✅ passed' : '❌ failed';
}

/** One store's section. */
export function storeMarkdown(entry: SummaryEntry): string {
  const { report } = entry;
  const link = safeHttpUrl(entry.reportUrl ?? null);
  const lines = [
    `### ${linkText(report.host, 120)}: ${report.score}/100, grade ${report.grade}${report.capped ? ' (capped: agents are blocked outright)' : ''}`,
    '',
    '| Score | Grade | Change | Gate |',
    '|---|---|---|---|',
    `| ${report.score}/100 | ${report.grade} | ${change(entry)} | ${verdict(entry.gate)} |`,
    '',
  ];
  if (entry.gate && !entry.gate.passed) {
    lines.push('**Gate failed:**', '', ...entry.gate.failures.map((f) => `- \`${f.gate}\`: ${linkText(f.message, 600)}`), '');
  }
  if (entry.baseline) {
    const changed = diffReports(entry.baseline, report).changed_checks;
    if (changed.length === 0) lines.push('No check changed since the baseline.', '');
    else {
      lines.push(
        `<details${changed.some((c) => c.from === 'pass' && c.to === 'fail') ? ' open' : ''}><summary>${changed.length} ${changed.length === 1 ? 'check' : 'checks'} changed since the baseline</summary>`,
        '',
        '| Check | Was | Now |',
        '|---|---|---|',
        ...changed.map((c) => `| ${linkText(c.label, 120)} ${inlineCode(c.id, 80)} | ${statusWord(c.from)} | ${statusWord(c.to)} |`),
        '',
        '</details>',
        '',
      );
    }
  }
  const fixes = report.top_fixes.slice(0, TOP_FIXES);
  if (fixes.length === 0) lines.push('Nothing left to fix: every check passed.', '');
  else {
    lines.push(
      `**Top fixes**`,
      '',
      ...fixes.map((f, i) => `${i + 1}. **+${f.points} pts** ${linkText(f.title, 200)} (${inlineCode(f.check_id, 80)})`),
      '',
    );
  }
  if (link) lines.push(`[Full report](${link})`, '');
  return lines.join('\n');
}

/** Several stores under one heading: the comment and the job summary. */
export function summaryMarkdown(entries: SummaryEntry[], heading = 'Agent readiness'): string {
  const failed = entries.filter((e) => e.gate && !e.gate.passed).length;
  const head = `## ${heading}${entries.some((e) => e.gate?.evaluated.length) ? (failed ? ` ❌ (${failed} of ${entries.length} failed the gate)` : ' ✅') : ''}`;
  return [head, '', ...entries.map(storeMarkdown)].join('\n');
}
