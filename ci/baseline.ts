// The report a scan is compared with: a JSON file a previous run saved (`--format json`, the action's report file)
// or a URL answering one. A hosted instance's report page (/r/{id}) stands for its JSON (/api/v1/scan/{id}.json).
import { readFile, stat } from 'node:fs/promises';
import { CiFetchError, MAX_JSON_BYTES, fetchJson } from './fetch-json.js';
import { CiReport } from './report.js';
import { describeIssues } from '../tools/invoke.js';

export class BaselineError extends Error {}

/** A report page address becomes its JSON address; any other URL is used as given. */
export function baselineJsonUrl(raw: string): string {
  const url = new URL(raw);
  const page = /^(.*)\/r\/([1-9][0-9]{0,15})\/?$/.exec(url.pathname);
  if (page) {
    url.pathname = `${page[1]}/api/v1/scan/${page[2]}.json`;
    url.search = '';
  }
  return url.href;
}

export async function loadBaseline(source: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<CiReport> {
  let data: unknown;
  if (/^https?:\/\//i.test(source)) {
    const url = baselineJsonUrl(source);
    let answer;
    try {
      answer = await fetchJson(url, { timeoutMs: opts.timeoutMs ?? 30_000, signal: opts.signal });
    } catch (err) {
      if (err instanceof CiFetchError) throw new BaselineError(`Baseline ${err.message}.`);
      throw err;
    }
    if (answer.status !== 200) throw new BaselineError(`Baseline ${url} answered ${answer.status}${errorText(answer.body)}.`);
    data = answer.body;
  } else {
    let text: string;
    try {
      if ((await stat(source)).size > MAX_JSON_BYTES) throw new BaselineError(`Baseline ${source} is larger than ${MAX_JSON_BYTES} bytes.`);
      text = await readFile(source, 'utf8');
    } catch (err) {
      if (err instanceof BaselineError) throw err;
      throw new BaselineError(`Baseline ${source} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
    }
    try {
      data = JSON.parse(text);
    } catch {
      throw new BaselineError(`Baseline ${source} is not JSON.`);
    }
  }
  const parsed = CiReport.safeParse(data);
  if (!parsed.success) throw new BaselineError(`Baseline ${source} is not a scan report (${describeIssues(parsed.error.issues)}).`);
  return parsed.data;
}

/** ": CODE message" of a JSON error answer of the service, or nothing. */
export function errorText(body: unknown): string {
  const e = body as { code?: unknown; message?: unknown } | null;
  return e && typeof e.code === 'string' ? `: ${e.code} ${String(e.message ?? '').slice(0, 300)}` : '';
}
