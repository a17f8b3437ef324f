// `scan <url> [--json] [--min-score N]` (README.md "Command line"): audit a store from a terminal or a CI
// job without a server or database. Exit codes: 0 done, 1 score below --min-score, 2 usage error or failed scan.
// server/cli.ts dispatches here; writers are injectable so tests run it in-process.
import { renderReport } from './report-text.js';
import { runScan } from '../scan/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../render/chromium.js';

export interface Writer {
  write(chunk: string): unknown;
}

export interface CliIo {
  stdout: Writer;
  stderr: Writer;
  signal?: AbortSignal;
}

export const SCAN_USAGE = `Usage: store-readiness scan <url> [--json] [--min-score N] [--no-browser]

  <url>            the store to audit (https:// is assumed when no scheme is given)
  --json           print the full result as JSON instead of the report
  --min-score N    exit with code 1 when the score is below N (0-100), e.g. in CI
  --no-browser     skip the browser view even where Chromium is installed

Environment: SCAN_TIMEOUT_MS, SCAN_MAX_REQUESTS, SCAN_ALLOW_PRIVATE, BASE_URL, CHROMIUM_PATH, RENDER_TIMEOUT_MS.
Exit codes: 0 done, 1 below --min-score, 2 usage error or failed scan.
`;

interface ScanArgs {
  url: string;
  json: boolean;
  minScore: number | null;
  browser: boolean;
}

export class UsageError extends Error {}

/** Parses `[scan] <url> [--json] [--min-score N | --min-score=N]`. */
export function parseScanArgs(argv: readonly string[]): ScanArgs | 'help' {
  const args = argv[0] === 'scan' ? argv.slice(1) : [...argv];
  let url: string | null = null;
  let json = false;
  let minScore: number | null = null;
  let browser = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-h' || a === '--help') return 'help';
    if (a === '--json') json = true;
    else if (a === '--no-browser') browser = false;
    else if (a === '--min-score' || a.startsWith('--min-score=')) {
      const value = a === '--min-score' ? args[++i] : a.slice('--min-score='.length);
      if (value === undefined || !/^\d{1,3}$/.test(value) || Number(value) > 100) {
        throw new UsageError('--min-score needs a whole number from 0 to 100.');
      }
      minScore = Number(value);
    } else if (a.startsWith('-') && a.length > 1) throw new UsageError(`Unknown option ${a.slice(0, 40)}.`);
    else if (url === null) url = a;
    else throw new UsageError('Give exactly one store URL.');
  }
  if (url === null) throw new UsageError('Give the URL of the store to scan.');
  return { url, json, minScore, browser };
}

export async function runScanCommand(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let args: ScanArgs | 'help';
  try {
    args = parseScanArgs(argv);
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n\n${SCAN_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(SCAN_USAGE);
    return 0;
  }

  let renderer: ChromiumRenderer | null = null;
  try {
    const config = loadConfig(env);
    // The browser view where Chromium is installed, as the service renders: the same report wherever a scan runs.
    renderer = args.browser ? createChromiumRenderer({ executablePath: config.CHROMIUM_PATH, concurrency: Math.min(1, config.RENDER_CONCURRENCY) }) : null;
    const result = await runScan(args.url, {
      allowPrivate: config.SCAN_ALLOW_PRIVATE,
      maxRequests: config.SCAN_MAX_REQUESTS,
      timeoutMs: config.SCAN_TIMEOUT_MS,
      baseUrl: config.BASE_URL,
      signal: io.signal,
      render: renderer ?? undefined,
      renderTimeoutMs: config.RENDER_TIMEOUT_MS,
    });
    io.stdout.write(args.json ? `${JSON.stringify(result, null, 2)}\n` : renderReport(result));
    if (args.minScore !== null && result.score < args.minScore) {
      io.stderr.write(`Score ${result.score} is below the minimum of ${args.minScore}.\n`);
      return 1;
    }
    return 0;
  } catch (err) {
    if (err instanceof AppError) io.stderr.write(`Scan failed (${err.code}): ${err.message}\n`);
    else if (err instanceof ConfigError) io.stderr.write(`${err.message}\n`);
    else if (err instanceof Error && err.name === 'AbortError') io.stderr.write('Scan aborted.\n');
    else io.stderr.write(`Scan failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    await renderer?.close();
  }
}
