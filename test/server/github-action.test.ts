// The GitHub Action as GitHub runs it: action.yml's audit step (its `run` line under bash, its `env` built from the
// step's expressions with the action's input defaults), the GITHUB_* variables and files a runner sets, a
// pull_request event file, and a loopback server standing in for GitHub's REST API. The first run scans a loopback
// store, writes the summary, the outputs and the report file, and creates the comment; the base branch's report
// is then what the cache step restores; the second run, after the store lost its llms.txt, fails the gate and
// updates the same comment in place.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { REPO_ROOT } from '../support/child-server.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { COMMENT_MARKER } from '../../ci/pull-request-comment.js';
import { AuditResult } from '../../schemas/scan-result.js';

interface Step {
  id?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION = parseYaml(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as ActionYml;

/** GitHub's expressions as the action uses them: `${{ a.b }}` looked up in the contexts, nothing else allowed. */
function expand(text: string, contexts: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*([a-z_]+)\.([a-z_-]+)\s*\}\}/gi, (_m, scope: string, key: string) => {
    const value = contexts[scope]?.[key];
    assert.notEqual(value, undefined, `the test knows no ${scope}.${key}`);
    return value!;
  });
}

/** A stand-in for api.github.com: the issue comments of one pull request, every call recorded. */
async function fakeGitHub(t: test.TestContext) {
  const comments: { id: number; body: string; html_url: string }[] = [];
  const calls: { method: string; path: string; auth: string | undefined }[] = [];
  const body = (req: IncomingMessage) => new Promise<Record<string, string>>((resolve) => {
    let text = '';
    req.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text ? JSON.parse(text) : {}));
  });
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    calls.push({ method: req.method ?? '', path, auth: req.headers.authorization });
    const send = (status: number, data: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    if (req.method === 'GET' && path === '/repos/acme/shop/issues/7/comments') return send(200, comments);
    if (req.method === 'POST' && path === '/repos/acme/shop/issues/7/comments') {
      const comment = { id: 100 + comments.length, body: (await body(req)).body, html_url: `https://github.test/acme/shop/pull/7#issuecomment-${100 + comments.length}` };
      comments.push(comment);
      return send(201, comment);
    }
    const edit = /^\/repos\/acme\/shop\/issues\/comments\/(\d+)$/.exec(path);
    if (req.method === 'PATCH' && edit) {
      const comment = comments.find((c) => c.id === Number(edit[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = (await body(req)).body;
      return send(200, comment);
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, comments, calls };
}

/** `name<<DELIM\nvalue\nDELIM` entries of a GITHUB_OUTPUT file (what @actions/core writes). */
function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) out[m[1]] = m[3];
  return out;
}

test('the action: summary, outputs, report file, and one pull request comment created then updated in place', { timeout: 300_000 }, async (t) => {
  assert.equal(ACTION.runs.using, 'composite');
  const step = ACTION.runs.steps.find((s) => s.id === 'audit');
  assert.ok(step?.run && step.env, 'the audit step runs a command with its env');
  for (const name of ['score', 'grade', 'report-url']) assert.match(ACTION.outputs[name].value, new RegExp(`steps\\.audit\\.outputs\\.${name}`));
  for (const name of ['url', 'min-score', 'max-drop', 'fail-on', 'server', 'api-key', 'comment']) assert.ok(ACTION.inputs[name], `input ${name}`);

  const github = await fakeGitHub(t);
  const shop = await startStoreFrom(completeStore);
  t.after(() => shop.close());
  const root = mkdtempSync(join(tmpdir(), 'srk-action-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'workspace');
  const runnerTemp = join(root, 'runner-temp');
  mkdirSync(workspace);
  mkdirSync(runnerTemp);
  const event = join(root, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7, base: { ref: 'main' }, head: { ref: 'faster-shop' } }, repository: { name: 'shop', owner: { login: 'acme' } } }));

  const withInputs = { url: shop.url, 'min-score': '50', 'max-drop': '2', comment: 'true' };
  const defaults = Object.fromEntries(Object.entries(ACTION.inputs).map(([k, v]) => [k, v.default ?? '']));
  async function runStep(n: number) {
    const files = { output: join(root, `output-${n}`), summary: join(root, `summary-${n}.md`) };
    for (const f of Object.values(files)) writeFileSync(f, '');
    const contexts = { github: { token: 'ghs_test_token' }, runner: { temp: runnerTemp } };
    const inputs = Object.fromEntries(Object.entries({ ...defaults, ...withInputs }).map(([k, v]) => [k, expand(v, { ...contexts, inputs: {} })]));
    const stepEnv = Object.fromEntries(Object.entries(step!.env!).map(([k, v]) => [k, expand(v, { ...contexts, inputs })]));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? root,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: REPO_ROOT,
      GITHUB_WORKSPACE: workspace,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_BASE_REF: 'main',
      GITHUB_HEAD_REF: 'faster-shop',
      GITHUB_SHA: 'a'.repeat(40),
      GITHUB_RUN_ID: String(1000 + n),
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://github.test',
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      RUNNER_TEMP: runnerTemp,
      SCAN_ALLOW_PRIVATE: '1',
      ...stepEnv,
    };
    const child = spawn('bash', ['-e', '-c', step!.run!], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (log += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (log += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, log, outputs: readOutputs(files.output), summary: readFileSync(files.summary, 'utf8') };
  }

  // First run: no base branch report yet. The scan passes its gates.
  const first = await runStep(1);
  assert.equal(first.code, 0, first.log);
  const reportFile = join(workspace, 'store-readiness-report', `127.0.0.1-${shop.port}.json`);
  const report = AuditResult.parse(JSON.parse(readFileSync(reportFile, 'utf8')));
  assert.deepEqual(first.outputs, { score: String(report.score), grade: report.grade, 'report-url': '', 'report-path': join(workspace, 'store-readiness-report') });
  assert.match(first.summary, new RegExp(`^## Agent readiness ✅\\n\\n### 127\\.0\\.0\\.1:${shop.port}: ${report.score}/100, grade ${report.grade}`));
  assert.match(first.summary, /\| no baseline \| ✅ passed \|/);
  assert.equal(github.comments.length, 1);
  assert.ok(github.comments[0].body.startsWith(COMMENT_MARKER));
  assert.match(github.comments[0].body, /\*\*Top fixes\*\*/);
  assert.ok(existsSync(join(runnerTemp, 'store-readiness-baseline', `127.0.0.1-${shop.port}.json`)), 'kept for the cache step');

  // The store breaks: the second run compares with the base branch's report and fails, naming the check.
  shop.setRoute('/llms.txt', { status: 404, body: 'gone' });
  const second = await runStep(2);
  assert.equal(second.code, 1, second.log);
  assert.match(second.log, /::error title=Agent readiness gate regressions::.*discovery_llms_txt/);
  assert.match(second.summary, /^## Agent readiness ❌ \(1 of 1 failed the gate\)/);
  assert.match(second.summary, /`discovery_llms_txt` \| ✅ pass \| ❌ fail \|/);
  assert.ok(Number(second.outputs.score) < report.score);

  // One comment, updated in place: created once, then edited; never a second one.
  assert.equal(github.comments.length, 1, 'not duplicated');
  assert.match(github.comments[0].body, /\*\*Gate failed:\*\*/);
  assert.deepEqual(
    github.calls.map((c) => `${c.method} ${c.path}`),
    ['GET /repos/acme/shop/issues/7/comments', 'POST /repos/acme/shop/issues/7/comments', 'GET /repos/acme/shop/issues/7/comments', 'PATCH /repos/acme/shop/issues/comments/100'],
  );
  assert.ok(github.calls.every((c) => c.auth === 'token ghs_test_token'), 'the token goes to GitHub with each comment call');
  assert.ok(shop.requests.every((r) => r.headers.authorization === undefined), 'and never anywhere else');
});
