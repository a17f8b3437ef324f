// A report as JUnit XML, the format every CI system's test reporter reads: one <testsuite> per pillar, one
// <testcase> per check (a failed check is a <failure> whose text is what was seen and the fix), and, when gates
// were asked for, a "gates" suite with one case per gate. A partial check passes here, with its fix in
// <system-out>: it earns points, and a JUnit failure turns many reporters' status red (docs/decisions.md "CI, exports and comparisons").
// The XML is built by fast-xml-parser, which escapes every value; characters XML 1.0 cannot carry are dropped.
import { XMLBuilder } from 'fast-xml-parser';
import type { CiReport } from './report.js';
import type { GateResult } from './gates.js';

const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const clean = (text: unknown, max = 4000): string => {
  const s = String(text ?? '').replace(XML_INVALID, ' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressEmptyNode: true });

export function junitXml(report: CiReport, gate?: GateResult): string {
  const fixes = new Map(report.top_fixes.map((f) => [f.check_id, f]));
  const fixText = (id: string) => {
    const fix = fixes.get(id);
    return fix ? `Fix (+${fix.points} points): ${fix.title}\n${fix.how}` : '';
  };
  const suites = report.pillars.map((p) => ({
    '@_name': clean(p.label, 200),
    '@_tests': p.checks.length,
    '@_failures': p.checks.filter((c) => c.status === 'fail').length,
    '@_errors': 0,
    '@_skipped': 0,
    testcase: p.checks.map((c) => ({
      '@_classname': clean(`store-readiness.${p.id}`, 200),
      '@_name': clean(`${c.id}: ${c.label}`, 300),
      '@_time': 0,
      ...(c.status === 'fail'
        ? { failure: { '@_message': clean(c.title ?? c.label, 500), '@_type': c.hard_block ? 'hard_block' : 'fail', '#text': clean([`Seen: ${c.evidence ?? ''}`, fixText(c.id)].filter(Boolean).join('\n\n')) } }
        : c.status === 'partial'
          ? { 'system-out': clean([`Partial: ${c.points}/${c.max} points. ${c.title ?? ''}`, fixText(c.id)].filter(Boolean).join('\n\n')) }
          : {}),
    })),
  }));
  if (gate && gate.evaluated.length > 0) {
    suites.push({
      '@_name': 'gates',
      '@_tests': gate.evaluated.length,
      '@_failures': gate.failures.length,
      '@_errors': 0,
      '@_skipped': 0,
      testcase: gate.evaluated.map((name) => {
        const failure = gate.failures.find((f) => f.gate === name);
        return {
          '@_classname': 'store-readiness.gates',
          '@_name': name,
          '@_time': 0,
          ...(failure ? { failure: { '@_message': clean(failure.message, 500), '@_type': 'gate', '#text': clean(failure.message) } } : {}),
        };
      }),
    });
  }
  const tests = suites.reduce((n, s) => n + s.testcase.length, 0);
  const failures = suites.reduce((n, s) => n + s['@_failures'], 0);
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': clean(`store-readiness ${report.host}: ${report.score}/100, grade ${report.grade}`, 300),
      '@_tests': tests,
      '@_failures': failures,
      '@_errors': 0,
      ...(report.scanned_at ? { '@_timestamp': clean(report.scanned_at, 40) } : {}),
      testsuite: suites,
    },
  });
}
