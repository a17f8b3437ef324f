// Pages for people wherever a person clicks, in Chromium: the header's "API" and the footer's "MCP server" open
// pages (programs still get JSON and the MCP endpoint from the same addresses), the footer's "Our scanner" opens
// /bot with the User-Agent strings the scanner sends, and the report's "Agent brief" opens the brief as a page
// for a signed-in merchant, with a download of the Markdown.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp } from '../helpers/start-app.js';
import { startInbox } from '../helpers/smtp.js';
import { saveFakeScan } from '../helpers/scans.js';
import { SHOTS, chromiumAvailable, openChromium, pageProblems } from '../helpers/browser.js';
import { AGENT_PROBE_UA, NEUTRAL_UA } from '../../outbound/fetch.js';

test('API, MCP, scanner and brief pages open from the links a person clicks', { timeout: 120_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 64 });
  const context = await openChromium(t, 'srk-people-');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  const page = await context.newPage();
  const problems = pageProblems(page);

  // The header's API link: a page, not raw JSON.
  await page.goto(`${app.url}/`);
  await Promise.all([page.waitForURL(`${app.url}/api/v1`), page.click('.site-nav a:has-text("API")')]);
  assert.equal(await page.textContent('h1'), 'REST API');
  assert.ok((await page.locator('table.api-routes tbody tr').count()) >= 5, 'every route is listed');
  await page.screenshot({ path: join(SHOTS, 'api-page.png'), fullPage: true });
  const json = await fetch(`${app.url}/api/v1`);
  assert.match(json.headers.get('content-type') ?? '', /^application\/json/, 'programs still get the discovery document');
  assert.match(json.headers.get('vary') ?? '', /Accept/);

  // The footer's MCP link: how to connect, with a copy button.
  await Promise.all([page.waitForURL(`${app.url}/mcp`), page.click('.site-footer a:has-text("MCP server")')]);
  assert.equal(await page.textContent('h1'), 'MCP server');
  assert.equal((await page.textContent('#mcp-url'))?.trim(), `${app.url}/mcp`);
  assert.match((await page.textContent('#mcp-claude-code')) ?? '', /^claude mcp add --transport http store-readiness /);
  await page.click('[data-copy="mcp-url"]');
  await page.waitForSelector('[data-copy="mcp-url"]:has-text("Copied")');
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), `${app.url}/mcp`);
  assert.ok((await page.locator('dl.tool-list dt').count()) >= 3);
  await page.screenshot({ path: join(SHOTS, 'mcp-page.png'), fullPage: true });
  // An MCP client's stream request is not the page.
  const stream = await fetch(`${app.url}/mcp`, { headers: { accept: 'text/event-stream' } });
  assert.doesNotMatch(stream.headers.get('content-type') ?? '', /text\/html/);
  await stream.body?.cancel();

  // The footer's scanner link: the User-Agent strings the scanner really sends, which point here.
  await Promise.all([page.waitForURL(`${app.url}/bot`), page.click('.site-footer a:has-text("Our scanner")')]);
  assert.match((await page.textContent('h1')) ?? '', /scanner/);
  assert.equal(await page.textContent('[data-testid=ua-neutral]'), NEUTRAL_UA(app.config.BASE_URL));
  assert.equal(await page.textContent('[data-testid=ua-probe]'), AGENT_PROBE_UA(app.config.BASE_URL));
  assert.match(NEUTRAL_UA(app.config.BASE_URL), new RegExp(`\\+${app.url.replace(/\./g, '\\.')}/bot\\)$`));
  assert.match((await page.textContent('#bot-refuse')) ?? '', /User-agent: store-readiness\nDisallow: \//);
  await page.screenshot({ path: join(SHOTS, 'bot-page.png'), fullPage: true });

  // The report's brief link: sign in, then the brief as a page, and the Markdown as a download.
  await page.goto(`${app.url}/r/${report.scan_id}`);
  await page.click('a:has-text("Agent brief (Pro)")');
  await page.fill('#email', 'owner@shop.test');
  await page.click('main button[type=submit]');
  await page.waitForSelector('text=Check your mail');
  await page.goto(await inbox.nextLink('owner@shop.test'));
  await Promise.all([page.waitForURL(`${app.url}/console/brief/${report.scan_id}`), page.click('main button[type=submit]')]);
  assert.equal(await page.textContent('main > h1'), 'Agent brief for shop.test');
  assert.ok((await page.locator('[data-testid=brief] h2').count()) >= 1, 'the Markdown is rendered, not shown raw');
  assert.equal(await page.locator('[data-testid=brief] h2:has-text("Fix in this order")').count(), 1);
  assert.equal(await page.locator('[data-testid=brief] script').count(), 0, 'the JSON-LD snippet is shown as code, not run');
  assert.match((await page.textContent('[data-testid=brief] pre')) ?? '', /<script type="application\/ld\+json">/);
  await page.screenshot({ path: join(SHOTS, 'brief-page.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('a:has-text("Download the Markdown")')]);
  assert.equal(download.suggestedFilename(), `agent-brief-${report.scan_id}.md`);
  const saved = readFileSync((await download.path())!, 'utf8');
  assert.match(saved, /^# /);
  assert.deepEqual(problems, []);
});
