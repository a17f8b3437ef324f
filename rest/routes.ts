// The REST endpoint table: each row names its tool, how to read its arguments from the request,
// its auth and limiter, and the errors it may answer. Mounted on /api/v1 and on the /api alias; OpenAPI and
// the discovery document are generated from the same rows.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../lib/errors.js';
import type { AnyTool } from '../tools/tool.js';
import { describeIssues } from '../tools/invoke.js';
import { getScan } from '../tools/get-scan.js';
import { scanStore } from '../tools/scan-store.js';
import { idempotencyKey, invalidReportsBody, readReports, reportsBody } from '../tools/read-reports.js';
import { getAgentBrief } from '../tools/get-agent-brief.js';
import { getScoreHistory } from '../tools/get-score-history.js';
import { startDeepAudit } from '../tools/start-deep-audit.js';
import { getDeepAudit } from '../tools/get-deep-audit.js';
import { exportDeepAudit } from '../tools/export-deep-audit.js';
import { compareStores, hostList } from '../tools/compare-stores.js';

export interface RouteDef {
  method: 'get' | 'post';
  path: string; // OpenAPI form, relative to /api/v1: "/scan/{scan_id}.json"
  summary: string;
  tool: AnyTool;
  auth: 'none' | 'optional' | 'pro';
  limit: 'scan' | 'read';
  errors: ErrorCode[]; // besides the errors every route may answer (404, 405, 429, 500, 503)
  args(req: Request): unknown;
  onInvalid?(issues: z.core.$ZodIssue[]): AppError;
  bodyLimit?: string; // JSON body size cap for POST rows
  /** Sends a non-JSON answer (the Markdown agent brief); JSON otherwise. */
  send?(res: Response, data: unknown): void;
  produces?: string; // media type of the 200 answer, for OpenAPI
  /** Response headers to document in OpenAPI, e.g. Idempotency-Key. */
  echoesHeaders?: string[];
  /** Set when the endpoint is deprecated (docs/decisions.md "API"): headers, OpenAPI, discovery, llms.txt follow. */
  deprecated?: Deprecation;
}

export interface Deprecation {
  since: string; // YYYY-MM-DD, the day it was deprecated
  sunset: string; // YYYY-MM-DD, the removal date: at least 6 months after `since`
  /** Service path of the replacement, e.g. "/api/v2/scan"; {param} placeholders are filled from the request. */
  successor: string;
}

/** A path segment that must be a positive integer id ("12" but not "1e3", "-1" or "{\"$gt\":\"\"}"). */
export function integerParam(value: unknown, name: string): number {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new AppError('INVALID_PARAMS', `${name} must be a positive integer.`);
  }
  return Number(value);
}

/** One query value: repeated parameters ("?url=a&url=b") are refused rather than guessed at. */
export function singleQuery(req: Request, name: string, repeated: () => AppError): string | undefined {
  const value = req.query[name];
  if (Array.isArray(value)) throw repeated();
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const missingUrl = () =>
  new AppError('MISSING_URL', 'The url query parameter is required, e.g. /api/v1/scan?url=https://your-store.example', {
    method: 'GET',
    endpoint: '/api/v1/scan',
    params: { url: 'https://your-store.example' },
    description: 'Scan a store by passing its address in the url query parameter.',
  });

export const ROUTES: RouteDef[] = [
  {
    method: 'get',
    path: '/scan',
    summary: "Scan a store now (synchronous, about 30 s) and store the result in the readiness index",
    tool: scanStore,
    auth: 'optional',
    limit: 'scan',
    errors: ['MISSING_URL', 'INVALID_URL', 'INVALID_PARAMS', 'UNAUTHORIZED', 'CROSS_SITE_REFUSED', 'STORE_UNREACHABLE', 'SCANNER_BUSY', 'SCAN_TIMEOUT'],
    args(req) {
      const url = singleQuery(req, 'url', () => new AppError('INVALID_URL', 'Give the url parameter once.'));
      if (url === undefined) throw missingUrl();
      const vertical = singleQuery(req, 'vertical', () => new AppError('INVALID_PARAMS', 'Give the vertical parameter once.'));
      return vertical === undefined ? { url } : { url, vertical };
    },
    onInvalid(issues) {
      const urlIssue = issues.find((i) => i.path[0] === 'url');
      if (urlIssue) return new AppError('INVALID_URL', `url: ${urlIssue.message}`);
      return new AppError('INVALID_PARAMS', describeIssues(issues));
    },
  },
  {
    method: 'get',
    path: '/scan/{scan_id}.json',
    summary: 'Read a stored scan result by id',
    tool: getScan,
    auth: 'none',
    limit: 'read',
    errors: ['SCAN_NOT_FOUND', 'INVALID_PARAMS'],
    args: (req) => ({ scan_id: integerParam(req.params.scan_id, 'scan_id') }),
  },
  {
    method: 'get',
    path: '/scan/{scan_id}/brief.md',
    summary: 'The agent brief of a stored scan (markdown): fixes in order as steps, paste-ready artifacts, the re-scan call',
    tool: getAgentBrief,
    auth: 'pro',
    limit: 'read',
    errors: ['SCAN_NOT_FOUND', 'INVALID_PARAMS', 'UNAUTHORIZED'],
    args: (req) => ({ scan_id: integerParam(req.params.scan_id, 'scan_id') }),
    produces: 'text/markdown',
    send(res, data) {
      const brief = data as { scan_id: number; markdown: string };
      res.setHeader('Content-Disposition', `inline; filename="agent-brief-${brief.scan_id}.md"`);
      res.type('text/markdown; charset=utf-8').send(brief.markdown);
    },
  },
  {
    method: 'post',
    path: '/reports',
    summary: 'Bulk read: the latest stored report of up to 100 stores, in the order sent (never scans)',
    tool: readReports,
    auth: 'pro',
    limit: 'read',
    // 100 hosts of 253 characters are about 26 KB; a 64 KiB body is refused with 413 (docs/security.md O8).
    bodyLimit: '32kb',
    errors: ['INVALID_BODY', 'UNAUTHORIZED'],
    echoesHeaders: ['Idempotency-Key'],
    args(req) {
      idempotencyKey(req.headersDistinct['idempotency-key']); // refused before any work (docs/security.md O4)
      return reportsBody(req.body);
    },
    onInvalid: invalidReportsBody,
    send(res, data) {
      const key = idempotencyKey(res.req.headersDistinct['idempotency-key']); // echoed as sent
      if (key !== undefined) res.setHeader('Idempotency-Key', key);
      res.json(data);
    },
  },
  {
    method: 'get',
    path: '/history/{host}',
    summary: 'Score history of a store: its stored scans, newest first, with the change from each scan to the next (never scans)',
    tool: getScoreHistory,
    auth: 'none',
    limit: 'read',
    errors: ['HOST_NOT_FOUND', 'INVALID_PARAMS'],
    args(req) {
      const limit = singleQuery(req, 'limit', () => new AppError('INVALID_PARAMS', 'Give the limit parameter once.'));
      return { host: req.params.host, ...(limit === undefined ? {} : { limit: integerParam(limit, 'limit') }) };
    },
  },
  {
    method: 'post',
    path: '/audits',
    summary: 'Start a deep audit of a store\'s product pages (background work: answers 202 at once with the audit id)',
    tool: startDeepAudit,
    auth: 'pro',
    limit: 'scan',
    bodyLimit: '4kb',
    errors: ['INVALID_BODY', 'INVALID_URL', 'UNAUTHORIZED', 'CROSS_SITE_REFUSED', 'AUDIT_RUNNING', 'AUDITS_AT_LIMIT'],
    args: (req) => (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : {}),
    onInvalid(issues) {
      const urlIssue = issues.find((i) => i.path[0] === 'url');
      if (urlIssue) return new AppError('INVALID_URL', `url: ${urlIssue.message}`);
      return new AppError('INVALID_BODY', describeIssues(issues));
    },
    send(res, data) {
      const audit = data as { audit_id: string };
      res.status(202).setHeader('Location', `/api/v1/audits/${audit.audit_id}`);
      res.json(data);
    },
  },
  {
    method: 'get',
    path: '/audits/{audit_id}',
    summary: 'A deep audit by its id: progress while it runs, coverage, templates and worst pages once done',
    tool: getDeepAudit,
    auth: 'none',
    limit: 'read',
    errors: ['AUDIT_NOT_FOUND', 'INVALID_PARAMS'],
    args: (req) => ({ audit_id: req.params.audit_id }),
  },
  {
    method: 'get',
    path: '/audits/{audit_id}/pages.csv',
    summary: 'Every page of a finished deep audit as CSV',
    tool: exportDeepAudit,
    auth: 'none',
    limit: 'read',
    errors: ['AUDIT_NOT_FOUND', 'INVALID_PARAMS'],
    args: (req) => ({ audit_id: req.params.audit_id }),
    produces: 'text/csv',
    send(res, data) {
      const { audit_id, csv } = data as { audit_id: string; csv: string };
      res.setHeader('Content-Disposition', `attachment; filename="deep-audit-${audit_id}.csv"`);
      res.type('text/csv; charset=utf-8').send(csv);
    },
  },
  {
    method: 'get',
    path: '/compare',
    summary: 'Compare 2 to 5 stores of the index side by side: score, grade, pillars and every check, differences marked (never scans)',
    tool: compareStores,
    auth: 'none',
    limit: 'read',
    errors: ['INVALID_PARAMS'],
    args: (req) => ({ hosts: hostList(singleQuery(req, 'hosts', () => new AppError('INVALID_PARAMS', 'Give the hosts parameter once, comma-separated.'))) }),
  },
];

/** "/scan/{scan_id}.json" → "/scan/:scan_id.json" for express. */
export const expressPath = (path: string): string => path.replace(/\{([a-z_]+)\}/g, ':$1');
