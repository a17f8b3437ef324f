// Every page of a deep audit as CSV (RFC 4180, written by csv-stringify): one row a planned page, in plan order, with
// its template, each fact as yes/no and the reasons for what is missing. Store text is data in a cell; a cell a
// spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe (OWASP "CSV injection").
import { stringify } from 'csv-stringify/sync';
import { AUDIT_FACTS, FACT_LABELS } from '../../scan/page-audit.js';
import { templatesOf, type AuditedPage } from './result.js';

const formulaSafe = (cell: string): string => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

export function auditCsv(pages: readonly AuditedPage[]): string {
  const { ids } = templatesOf(pages);
  const header = ['url', 'status', 'read', 'product_page', 'template', 'name', ...AUDIT_FACTS, 'missing'];
  const rows = pages.map((p, i) => {
    const a = p.audit;
    const facts = AUDIT_FACTS.map((f) => (a?.product ? (a.facts[f] ? 'yes' : 'no') : ''));
    const missing = a?.error ?? (a?.product ? AUDIT_FACTS.filter((f) => !a.facts[f]).map((f) => `${FACT_LABELS[f]}: ${a.reasons[f] ?? 'missing'}`).join('; ') : a ? 'not a product page' : 'not read yet');
    return [p.url, a?.status ?? '', a && a.error === null ? 'yes' : 'no', a?.product ? 'yes' : 'no', ids[i] ?? '', a?.name ?? '', ...facts, missing].map((c) => formulaSafe(String(c)));
  });
  return stringify([header, ...rows]);
}
