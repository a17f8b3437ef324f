// The GitHub Action (action.yml, README.md "GitHub Action"): scans each `url` with the `scan` command's job (locally, or
// through `server` with `api-key`), compares it with a baseline (the `baseline` input, else the base branch's last
// report restored by the action's cache step into BASELINE_DIR), applies the gates, then writes the reports (JSON
// files for upload), the job summary, the outputs and, on a pull request, one comment updated in place.
// GITHUB_TOKEN is used for that comment only. Exit codes as `scan`: 0 passed, 1 a gate failed, 2 no scan.
import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import { context, getOctokit } from '@actions/github';
import { JobError, parseScanArgs, runScanJob, UsageError, type ScanArgs, type ScanJob } from './cli-scan.js';
import { summaryMarkdown, type SummaryEntry } from '../ci/markdown.js';
import { upsertComment } from '../ci/pull-request-comment.js';

/** The inputs as the `scan` command's flags, so both read them with one parser. */
function scanFlags(baseline: string | null): string[] {
  const flag = (input: string) => {
    const value = core.getInput(input);
    return value ? [`--${input}`, value] : [];
  };
  // Without a baseline (a first run, a new branch) --max-drop has nothing to compare with: it waits for one.
  return [...flag('min-score'), ...(baseline ? ['--baseline', baseline, ...flag('max-drop')] : []), ...flag('fail-on'), ...flag('server')];
}

/** "shop.example/en" → "shop.example-en": the report's file name for a URL, the same on every run. */
export function reportName(url: string): string {
  const parsed = new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`);
  return `${parsed.host}${parsed.pathname}`.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120) || 'store';
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/** The baseline of one URL: the `baseline` input (a report file or URL, or a folder of reports), else the cached one. */
async function baselineFor(url: string, input: string, cached: string | undefined): Promise<string | null> {
  if (input) {
    if (!/^https?:\/\//i.test(input) && (await stat(input).then((s) => s.isDirectory(), () => false))) {
      const file = join(input, `${reportName(url)}.json`);
      return (await exists(file)) ? file : null;
    }
    return input;
  }
  if (!cached) return null;
  const file = join(cached, `${reportName(url)}.json`);
  return (await exists(file)) ? file : null;
}

export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (env.STORE_READINESS_API_KEY) core.setSecret(env.STORE_READINESS_API_KEY); // masked in every log line
  const urls = core.getInput('url', { required: true }).split(/[\s,]+/).filter(Boolean);
  const reportDir = resolve(env.GITHUB_WORKSPACE ?? '.', core.getInput('report-dir') || 'store-readiness-report');
  const baselineInput = core.getInput('baseline');
  if (baselineInput && urls.length > 1 && (/^https?:\/\//i.test(baselineInput) || !(await stat(baselineInput).then((s) => s.isDirectory(), () => false)))) {
    core.setFailed('With several URLs, baseline must be a folder of reports named as this action writes them.');
    return 2;
  }

  const jobs: { url: string; job: ScanJob; file: string }[] = [];
  for (const url of urls) {
    let args: ScanArgs;
    try {
      const parsed = parseScanArgs([url, ...scanFlags(await baselineFor(url, baselineInput, env.BASELINE_DIR))], env);
      if (parsed === 'help') throw new UsageError('help is not an input');
      args = parsed;
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      core.setFailed(`Invalid input: ${err.message}`);
      return 2;
    }
    try {
      const job = await runScanJob(args, env);
      const file = join(reportDir, `${reportName(url)}.json`);
      await mkdir(reportDir, { recursive: true });
      await writeFile(file, `${JSON.stringify(job.json, null, 2)}\n`);
      if (env.BASELINE_DIR) {
        // Kept for the cache step, so pull requests against this branch compare with it.
        await mkdir(env.BASELINE_DIR, { recursive: true });
        await copyFile(file, join(env.BASELINE_DIR, `${reportName(url)}.json`));
      }
      jobs.push({ url, job, file });
      core.info(`${url}: ${job.report.score}/100, grade ${job.report.grade}${job.gate.passed ? '' : ' (gate failed)'}`);
    } catch (err) {
      if (!(err instanceof JobError)) throw err;
      core.setFailed(`${url}: ${err.message}`);
      return 2;
    }
  }

  const entries: SummaryEntry[] = jobs.map(({ job }) => ({ ...job, reportUrl: job.report.scan_id ? job.report.report_url : null }));
  const markdown = summaryMarkdown(entries, 'Agent readiness');
  await core.summary.addRaw(markdown, true).write();

  const lowest = jobs.reduce((a, b) => (b.job.report.score < a.job.report.score ? b : a));
  core.setOutput('score', String(lowest.job.report.score));
  core.setOutput('grade', lowest.job.report.grade);
  core.setOutput('report-url', lowest.job.report.scan_id ? (lowest.job.report.report_url ?? '') : '');
  core.setOutput('report-path', reportDir);

  await commentOnPullRequest(markdown, env);

  const failed = jobs.filter(({ job }) => !job.gate.passed);
  for (const { url, job } of failed) for (const f of job.gate.failures) core.error(`${url}: ${f.message}`, { title: `Agent readiness gate ${f.gate}` });
  return failed.length > 0 ? 1 : 0;
}

/** The pull request's one comment, when asked for and the run is a pull request's; a refusal is a warning. */
async function commentOnPullRequest(markdown: string, env: NodeJS.ProcessEnv): Promise<void> {
  const pr = context.payload.pull_request;
  if (core.getInput('comment') === 'false' || !pr) return;
  const token = env.GITHUB_TOKEN;
  if (!token) {
    core.warning('No GITHUB_TOKEN: the pull request comment was skipped.');
    return;
  }
  try {
    const done = await upsertComment(getOctokit(token), { ...context.repo, number: pr.number }, markdown);
    core.info(`Pull request comment ${done.action}: ${done.url}`);
  } catch (err) {
    // A pull request from a fork gets a read-only token: the gate still decides, the comment is only skipped.
    core.warning(`The pull request comment could not be written: ${(err as Error).message}`);
  }
}
