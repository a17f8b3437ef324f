// Debian's Chromium driven by playwright-core for the browser tests: where it is, the flags it needs on a machine
// without a network, and a persistent profile removed after the test. Without Chromium a test skips with a
// message, except under CI=true where it fails.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const SHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

/** True when Chromium is installed; otherwise the test is skipped (or failed under CI) and false is returned. */
export function chromiumAvailable(t: TestContext): boolean {
  if (existsSync(CHROMIUM)) {
    mkdirSync(SHOTS, { recursive: true });
    return true;
  }
  if (process.env.CI === 'true') assert.fail(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium).`);
  t.skip(`${CHROMIUM} is missing: install it with "apt-get install -y chromium" to run the browser test.`);
  return false;
}

/** A headless Chromium on a fresh profile, closed and removed when the test ends. */
export async function openChromium(t: TestContext, profilePrefix: string): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), profilePrefix));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } });
  // Close the browser before removing its profile: Chromium keeps writing to it until it exits.
  t.after(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  return context;
}

/** What went wrong on a page while a test drove it: script errors and Content-Security-Policy refusals. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  return problems;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * The serious and critical axe-core violations of the page as it is now (evaluate is not held by the page's CSP),
 * with every rule axe has turned on, those off by default too (WCAG 2.2 AA's target-size among them).
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate<Violation[]>(
    `axe.run(document, { resultTypes: ['violations'], rules: Object.fromEntries(axe.getRules().map((r) => [r.ruleId, { enabled: true }])) })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export const describeViolations = (path: string, vs: Violation[]): string =>
  vs.map((v) => `${path}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target.join(' ')} ${v.nodes[0]?.failureSummary ?? ''}`).join('\n');
