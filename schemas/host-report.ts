// The bulk read (POST /api/v1/reports): its request body and HostReport, each described once.
// The body is a strict object (docs/security.md O6: unknown keys such as "__proto__" are refused, never merged);
// every message says what is wrong so a caller can fix the request without reading the schema.
import { z } from 'zod';
import { Grade } from './scan-result.js';
import { indexHost } from '../lib/hosts.js';

export const MAX_BULK_HOSTS = 100;
export const MAX_HOST_ITEM_LENGTH = 253;

/** The same rule the index files hosts under (tools/readiness.ts), as a yes/no for validation. */
function isIndexHost(value: string): boolean {
  try {
    indexHost(value);
    return true;
  } catch {
    return false;
  }
}

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

export const BulkHost = z
  .string({ error: (iss) => `must be a host name string, not ${kindOf(iss.input)}` })
  .min(1, { error: 'is empty; send a host name such as "shop.example.com"', abort: true })
  .max(MAX_HOST_ITEM_LENGTH, { error: `is longer than ${MAX_HOST_ITEM_LENGTH} characters, the longest possible host name`, abort: true })
  .refine(isIndexHost, {
    error: (iss) =>
      `${JSON.stringify(String(iss.input).slice(0, 80))} is not a host name (send e.g. "shop.example.com" or "https://shop.example.com/")`,
  })
  .describe('A store host name such as "shop.example.com"; "https://www.Shop.example.com/" is read as "shop.example.com".');

export const BulkHosts = z
  .array(BulkHost, {
    error: (iss) =>
      iss.input === undefined
        ? 'is required: send {"hosts": ["shop.example.com", …]}'
        : `must be an array of host names, not ${kindOf(iss.input)}`,
  })
  .min(1, 'is empty; send between 1 and 100 host names')
  .max(MAX_BULK_HOSTS, {
    error: (iss) => `lists ${Array.isArray(iss.input) ? iss.input.length : 'too many'} hosts; at most ${MAX_BULK_HOSTS} per request (split the list)`,
  })
  .describe('Up to 100 store hosts; each is answered in the order given, duplicates included.');

export const ReportsRequest = z
  .object(
    { hosts: BulkHosts },
    { error: (iss) => (iss.code === 'invalid_type' ? `the body must be a JSON object {"hosts": [...]}, not ${kindOf(iss.input)}` : undefined) },
  )
  .strict()
  .meta({ id: 'ReportsRequest' });

export const HostReport = z
  .object({
    host: z.string().describe('The store as the readiness index names it: lower case, no scheme, no leading "www.", port when not the default.'),
    scanned: z.boolean().describe('Whether a stored report exists (false for stores never scanned or delisted by their owner).'),
    score: z.int().min(0).max(100).optional(),
    grade: Grade.optional(),
    capped: z.boolean().optional().describe('True when agents are blocked outright and the score is capped at 35.'),
    agent_ready_verified: z
      .boolean()
      .optional()
      .describe('Latest scan is not capped, scores ≥ 70 with price, availability and live-agent access passing, and is at most 90 days old.'),
    scanned_at: z.iso.datetime().optional().describe('When the latest stored scan ran.'),
    report_url: z.url().optional().describe('The public report of the latest scan.'),
  })
  .describe('The latest stored report of one host; only host and scanned when it has none.')
  .meta({ id: 'HostReport' });
export type HostReport = z.infer<typeof HostReport>;

export const ReportsResponse = z
  .object({ reports: z.array(HostReport).describe('One entry per requested host, in the order sent.') })
  .meta({ id: 'ReportsResponse' });
export type ReportsResponse = z.infer<typeof ReportsResponse>;
