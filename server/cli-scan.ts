// `scan <url>` (README.md "Command line"): audit a store from a terminal or a CI job, locally (no server, no
// database) or through a hosted instance's API (`--server`), in four formats, with the CI gates of ci/gates.ts.
// Exit codes: 0 done and every gate passed, 1 a gate failed, 2 usage error or no scan (nor baseline) to judge.
// server/cli.ts and the GitHub Action (server/github-action.ts) run it; writers are injectable so tests run it
// in-process.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { renderReport } from './report-text.js';
import { runScan } from '../scan/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import { isCheckId } from '../scan/checks/rubric.js';
import type { AuditResult } from '../schemas/scan-result.js';
import { CiReport } from '../ci/report.js';
import { evaluateGates, type GateOptions, type GateResult } from '../ci/gates.js';
import { BaselineError, loadBaseline } from '../ci/baseline.js';
import { HostedScanError, scanThroughServer } from '../ci/hosted-scan.js';
import { junitXml } from '../ci/junit.js';
import { summaryMarkdown } from '../ci/markdown.js';
import { createChromiumRenderer } from '../render/chromium.js';

export interface Writer {
  write(chunk: string): unknown;
}

export interface CliIo {
  stdout: Writer;
  stderr: Writer;
  signal?: AbortSignal;
}

export const FORMATS = ['text', 'json', 'markdown', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

/** The environment variable that carries the API key of --server, so it stays out of the process list. */
export const API_KEY_ENV = 'STORE_READINESS_API_KEY';

export const SCAN_USAGE = `Usage: store-readiness scan <url> [options]

  <url>                  the store to audit (https:// is assumed when no scheme is given)
  --format F             text (default), json, markdown or junit (one test case per check)
  --json                 the same as --format json
  --output F=FILE        also write format F to FILE (repeatable), e.g. --output junit=readiness.xml
  --min-score N          fail when the score is below N (0-100)
  --baseline FILE|URL    a report saved by an earlier run (--format json) or a hosted report's address;
                         fail when a check that passed there fails now
  --max-drop N           with --baseline: fail when the score fell by more than N points
  --fail-on LIST         fail when one of these checks fails: hard-block (any check that caps the score)
                         or check ids, comma-separated (see /checks)
  --server URL           scan through a hosted instance's API instead of locally, so the scan is stored there
                         (history, index, console)
  --key KEY              its Pro API key (better: set ${API_KEY_ENV})
  --no-browser           skip the browser view even where Chromium is installed (local scans)

Environment: SCAN_TIMEOUT_MS, SCAN_MAX_REQUESTS, AGENTS_MAX_REQUESTS, SCAN_ALLOW_PRIVATE, BASE_URL,
             CHROMIUM_PATH, RENDER_TIMEOUT_MS (local scans); ${API_KEY_ENV}.
Exit codes: 0 scanned and every gate passed, 1 a gate failed (each failure is named on stderr),
            2 usage error, or the store could not be scanned, or the baseline could not be read.
`;

export interface ScanArgs {
  url: string;
  format: Format;
  outputs: { format: Format; file: string }[];
  gates: GateOptions;
  baseline: string | null;
  server: string | null;
  key: string | null;
  browser: boolean;
}

export class UsageError extends Error {}

function wholeNumber(value: string, flag: string, max = 100): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) > max) throw new UsageError(`${flag} needs a whole number from 0 to ${max}.`);
  return Number(value);
}

function format(value: string, flag: string): Format {
  if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${FORMATS.join(', ')}.`);
  return value as Format;
}

/** "hard-block" or check ids of the rubric, comma-separated; an unknown id is a usage error, not a silent pass. */
export function parseFailOn(value: string): GateOptions['failOn'] {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 1 && items[0] === 'hard-block') return 'hard-block';
  const unknown = items.filter((id) => !isCheckId(id));
  if (items.length === 0 || unknown.length > 0) {
    throw new UsageError(`--fail-on takes hard-block or check ids; unknown: ${unknown.slice(0, 5).join(', ').slice(0, 200) || '(empty)'}.`);
  }
  return items;
}

/** Parses `[scan] <url> [options]`; `help` for -h/--help. */
export function parseScanArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ScanArgs | 'help' {
  const args = argv[0] === 'scan' ? argv.slice(1) : [...argv];
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        format: { type: 'string' },
        output: { type: 'string', multiple: true },
        'min-score': { type: 'string' },
        baseline: { type: 'string' },
        'max-drop': { type: 'string' },
        'fail-on': { type: 'string' },
        server: { type: 'string' },
        key: { type: 'string' },
        'no-browser': { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0].slice(0, 200));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length === 0) throw new UsageError('Give the URL of the store to scan.');
  if (positionals.length > 1) throw new UsageError('Give exactly one store URL.');
  if (values.json && values.format && values.format !== 'json') throw new UsageError('--json and --format disagree: give one of them.');
  const outputs = (values.output ?? []).map((spec) => {
    const at = spec.indexOf('=');
    if (at <= 0 || at === spec.length - 1) throw new UsageError('--output takes FORMAT=FILE, e.g. --output junit=readiness.xml.');
    return { format: format(spec.slice(0, at), '--output'), file: spec.slice(at + 1) };
  });
  if (values['max-drop'] !== undefined && values.baseline === undefined) throw new UsageError('--max-drop needs --baseline: the score it may not fall from.');
  if (values.key !== undefined && values.server === undefined) throw new UsageError('--key goes with --server.');
  if (values.server !== undefined && !/^https?:\/\/[^\s]+$/i.test(values.server)) throw new UsageError('--server takes the http(s) address of a hosted instance.');
  return {
    url: positionals[0],
    format: values.json ? 'json' : format(values.format ?? 'text', '--format'),
    outputs,
    gates: {
      ...(values['min-score'] !== undefined ? { minScore: wholeNumber(values['min-score'], '--min-score') } : {}),
      ...(values['max-drop'] !== undefined ? { maxDrop: wholeNumber(values['max-drop'], '--max-drop') } : {}),
      ...(values['fail-on'] !== undefined ? { failOn: parseFailOn(values['fail-on']) } : {}),
    },
    baseline: values.baseline ?? null,
    server: values.server ?? null,
    key: values.server === undefined ? null : (values.key ?? env[API_KEY_ENV] ?? null) || null,
    browser: !values['no-browser'],
  };
}

/** A scan judged: the report as answered (json), its parsed shape, the baseline and the gates' verdict. */
export interface ScanJob {
  json: unknown;
  report: CiReport;
  baseline: CiReport | null;
  gate: GateResult;
}

/** Could not judge: no scan, or no baseline to compare with (exit 2). */
export class JobError extends Error {}

/** Reads the baseline first (a bad one costs no scan), scans locally or through --server, and applies the gates. */
export async function runScanJob(args: ScanArgs, env: Record<string, string | undefined>, signal?: AbortSignal): Promise<ScanJob> {
  try {
    const baseline = args.baseline === null ? null : await loadBaseline(args.baseline, { signal });
    const { json, report } = args.server ? await scanThroughServer(args.server, args.url, { key: args.key ?? undefined, signal }) : await scanLocally(args.url, env, args.browser, signal);
    return { json, report, baseline, gate: evaluateGates(report, baseline, args.gates) };
  } catch (err) {
    if (err instanceof BaselineError || err instanceof HostedScanError) throw new JobError(err.message);
    if (err instanceof AppError) throw new JobError(`Scan failed (${err.code}): ${err.message}`);
    if (err instanceof ConfigError) throw new JobError(err.message);
    if (err instanceof Error && err.name === 'AbortError') throw new JobError('Scan aborted.');
    throw new JobError(`Scan failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function scanLocally(url: string, env: Record<string, string | undefined>, browser: boolean, signal?: AbortSignal): Promise<{ json: AuditResult; report: CiReport }> {
  const config = loadConfig(env);
  // The browser view where Chromium is installed, as the service renders: the same report wherever a scan runs.
  const renderer = browser ? createChromiumRenderer({ executablePath: config.CHROMIUM_PATH, concurrency: Math.min(1, config.RENDER_CONCURRENCY) }) : null;
  try {
    const result = await runScan(url, {
      allowPrivate: config.SCAN_ALLOW_PRIVATE,
      maxRequests: config.SCAN_MAX_REQUESTS,
      timeoutMs: config.SCAN_TIMEOUT_MS,
      baseUrl: config.BASE_URL,
      signal,
      agentsMaxRequests: config.AGENTS_MAX_REQUESTS,
      render: renderer ?? undefined,
      renderTimeoutMs: config.RENDER_TIMEOUT_MS,
    });
    return { json: result, report: CiReport.parse(result) };
  } finally {
    await renderer?.close();
  }
}

/** The job in one format. */
export function renderJob(job: ScanJob, as: Format): string {
  if (as === 'json') return `${JSON.stringify(job.json, null, 2)}\n`;
  if (as === 'junit') return junitXml(job.report, job.gate);
  if (as === 'markdown') return summaryMarkdown([{ ...job, reportUrl: job.report.scan_id ? job.report.report_url : null }]);
  return renderReport(job.json as AuditResult);
}

export async function runScanCommand(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let args: ScanArgs | 'help';
  try {
    args = parseScanArgs(argv, env);
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n\n${SCAN_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(SCAN_USAGE);
    return 0;
  }
  let job: ScanJob;
  try {
    job = await runScanJob(args, env, io.signal);
  } catch (err) {
    if (!(err instanceof JobError)) throw err;
    io.stderr.write(`${err.message}\n`);
    return 2;
  }
  try {
    for (const out of args.outputs) await writeFile(out.file, renderJob(job, out.format));
  } catch (err) {
    io.stderr.write(`Could not write the report: ${(err as Error).message}\n`);
    return 2;
  }
  io.stdout.write(renderJob(job, args.format));
  if (job.baseline) {
    const d = job.report.score - job.baseline.score;
    io.stderr.write(`Baseline: ${job.baseline.score} → ${job.report.score} (${d >= 0 ? '+' : ''}${d}).\n`);
  }
  for (const failure of job.gate.failures) io.stderr.write(`Gate ${failure.gate} failed: ${failure.message}\n`);
  return job.gate.passed ? 0 : 1;
}
