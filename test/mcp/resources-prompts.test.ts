// Resources, resource templates, prompts and completions through the real app and the SDK's own client, plus
// invariants over every declaration (tools/resources, tools/prompts): names, texts, schemas, and the server card
// listing exactly what the server lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { connectMcp, postMcp } from '../helpers/mcp-client.js';
import { RESOURCES, RESOURCE_TEMPLATES } from '../../tools/resources/index.js';
import { PROMPTS } from '../../tools/prompts/index.js';
import { CHECK_CATALOGUE_FILE } from '../../tools/resources/check-catalogue.js';
import { serverCard } from '../../well-known/server-card.js';
import { llmsTxt } from '../../well-known/llms-txt.js';
import { UNTRUSTED_NOTE } from '../../mcp/untrusted-text.js';

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const textOf = (contents: object[]): string => contents.map((c) => ('text' in c ? String(c.text) : '')).join('');

test('every resource, template and prompt is fully declared, uniquely named and listed in the server card and llms.txt', () => {
  const names = [...RESOURCES, ...RESOURCE_TEMPLATES].map((r) => r.name);
  assert.equal(new Set(names).size, names.length);
  assert.equal(new Set(PROMPTS.map((p) => p.name)).size, PROMPTS.length);
  const llms = llmsTxt('http://localhost:3000');
  for (const r of [...RESOURCES, ...RESOURCE_TEMPLATES]) {
    assert.match(r.name, SNAKE, r.name);
    assert.ok(r.title.length > 0 && r.description.length >= 60, `${r.name}: a title and a description a model can act on`);
    assert.match('uri' in r ? r.uri : r.uriTemplate, /^readiness:\/\//);
    assert.ok(llms.includes('uri' in r ? r.uri : r.uriTemplate), `${r.name} in llms.txt`);
  }
  for (const t of RESOURCE_TEMPLATES) {
    const vars = [...t.uriTemplate.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    assert.deepEqual(vars.sort(), Object.keys(t.variables.shape).sort(), `${t.name}: every variable has a schema`);
    for (const name of Object.keys(t.complete)) assert.ok(vars.includes(name), `${t.name}: completes a variable it has`);
  }
  for (const p of PROMPTS) {
    assert.match(p.name, SNAKE, p.name);
    assert.ok(p.title.length > 0 && p.description.length >= 60, p.name);
    for (const [name, field] of Object.entries(p.args.shape as Record<string, { description?: string }>)) {
      assert.ok(field.description, `${p.name}.${name} is described`);
    }
    assert.ok(llms.includes(`\`${p.name}\``), `${p.name} in llms.txt`);
  }
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const name of [...PROMPTS.map((p) => p.name), ...RESOURCES.map((r) => r.uri), ...RESOURCE_TEMPLATES.map((r) => r.uriTemplate)]) {
    assert.ok(readme.includes(name), `README names ${name}`);
  }
});

test('resources/list, templates and prompts/list answer exactly what the server card lists; capabilities match', async (t) => {
  const app = await startApp(t);
  const client = await connectMcp(t, app);
  const card = serverCard('http://localhost:3000');
  assert.deepEqual(client.getServerCapabilities(), card.capabilities);
  const { resources } = await client.listResources();
  assert.deepEqual(resources, card.resources);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates, card.resourceTemplates);
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts, card.prompts);
});

test('each direct resource reads: the catalogue is docs/checks.md, llms.txt is /llms.txt, the index ranks stores', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'top.test', score: 91 });
  await saveFakeScan(app.db, { host: 'low.test', score: 35 });
  const client = await connectMcp(t, app);
  for (const r of RESOURCES) {
    const { contents } = await client.readResource({ uri: r.uri });
    assert.equal(contents.length, 1, r.uri);
    assert.equal(contents[0].uri, r.uri);
    assert.equal(contents[0].mimeType, r.mimeType);
  }
  assert.equal(textOf((await client.readResource({ uri: 'readiness://checks' })).contents), readFileSync(CHECK_CATALOGUE_FILE, 'utf8'));
  const served = await (await fetch(`${app.url}/llms.txt`)).text();
  assert.equal(textOf((await client.readResource({ uri: 'readiness://llms.txt' })).contents), served);
  const index = textOf((await client.readResource({ uri: 'readiness://index' })).contents);
  assert.ok(index.indexOf('top.test') > 0 && index.indexOf('top.test') < index.indexOf('low.test'), index);
});

test('report templates: Markdown and JSON of the latest report; unknown and delisted hosts give the tools\' error', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 77, vertical: 'pets' });
  await saveFakeScan(app.db, { host: 'gone.test', score: 80 });
  await app.db.setDelisted('gone.test', true);
  const client = await connectMcp(t, app);
  const md = await client.readResource({ uri: 'readiness://reports/shop.test' });
  assert.equal(md.contents[0].mimeType, 'text/markdown');
  assert.match(textOf(md.contents), /^Untrusted page content.*\n\n# shop\.test: 77\/100, grade/);
  const json = await client.readResource({ uri: 'readiness://reports/shop.test/json' });
  assert.deepEqual(JSON.parse(textOf(json.contents)), report);
  const pets = textOf((await client.readResource({ uri: 'readiness://index/pets' })).contents);
  assert.match(pets, /shop\.test/);
  for (const host of ['never.test', 'gone.test']) {
    const err = await client.readResource({ uri: `readiness://reports/${host}` }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof McpError, host);
    assert.equal(err.code, -32602); // resource not found, as the SDK answers it on every revision
    const data = err.data as { code: string; next_action: { endpoint: string } };
    assert.equal(data.code, 'HOST_NOT_FOUND');
    assert.equal(data.next_action.endpoint, '/api/v1/scan');
  }
  for (const uri of ['readiness://reports/%3Cscript%3E', 'readiness://index/cars']) {
    const err = await client.readResource({ uri }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof McpError, uri);
    assert.equal(err.code, -32602, uri);
  }
});

test('improve_store_readiness: top fixes, failing checks and the agent brief; an unknown host is said in the prompt', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 52 });
  const client = await connectMcp(t, app);
  const { messages } = await client.getPrompt({ name: 'improve_store_readiness', arguments: { host: 'https://www.shop.test/' } });
  assert.equal(messages.length, 1);
  assert.equal(messages[0].role, 'user');
  const text = messages[0].content.type === 'text' ? messages[0].content.text : '';
  assert.match(text, /shop\.test/);
  assert.match(text, /52\/100/);
  assert.ok(text.includes(`/api/v1/scan/${report.scan_id}/brief.md`));
  for (const fix of report.top_fixes.slice(0, 5)) assert.ok(text.includes(fix.check_id), fix.check_id);
  for (const c of report.pillars.flatMap((p) => p.checks).filter((c) => c.status === 'fail')) assert.ok(text.includes(`\`${c.id}\``), c.id);
  const unknown = await client.getPrompt({ name: 'improve_store_readiness', arguments: { host: 'never.test' } });
  assert.match(unknown.messages[0].content.type === 'text' ? unknown.messages[0].content.text : '', /never\.test.*no public readiness report/);
  const bad = await client.getPrompt({ name: 'improve_store_readiness', arguments: { host: '' } }).then(() => null, (e: unknown) => e);
  assert.ok(bad instanceof McpError);
  assert.equal(bad.code, -32602);
});

test('compare_stores: scores, grades and the differing checks of 2 to 5 stores; unknown ones named; bad lists refused', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'a.test', score: 90 });
  await saveFakeScan(app.db, { host: 'b.test', score: 30, capped: true });
  const client = await connectMcp(t, app);
  const { messages } = await client.getPrompt({ name: 'compare_stores', arguments: { hosts: 'a.test, b.test nobody.test' } });
  const text = messages[0].content.type === 'text' ? messages[0].content.text : '';
  assert.match(text, /\| a\.test \| 90\/100 \|/);
  assert.match(text, /\| b\.test \| 30\/100 \|/);
  assert.match(text, /No public readiness report exists for nobody\.test/);
  assert.match(text, /Checks where they differ|Every check has the same status/);
  for (const hosts of ['a.test', 'a.test, a.test', 'a.test, b.test, c.test, d.test, e.test, f.test', 'a.test, <b>']) {
    const err = await client.getPrompt({ name: 'compare_stores', arguments: { hosts } }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof McpError, hosts);
    assert.equal(err.code, -32602, hosts);
  }
});

test('completion/complete: hosts by prefix best score first, never delisted; host lists; categories', async (t) => {
  const app = await startApp(t);
  for (const [host, score] of [['shop.test', 40], ['shoes.test', 90], ['shore.test', 70], ['other.test', 99]] as const) await saveFakeScan(app.db, { host, score });
  await saveFakeScan(app.db, { host: 'shoddy.test', score: 95 });
  await app.db.setDelisted('shoddy.test', true);
  const client = await connectMcp(t, app);
  const values = async (ref: Parameters<typeof client.complete>[0]['ref'], name: string, value: string) =>
    (await client.complete({ ref, argument: { name, value } })).completion.values;
  const report = { type: 'ref/resource' as const, uri: 'readiness://reports/{host}' };
  assert.deepEqual(await values(report, 'host', 'sho'), ['shoes.test', 'shore.test', 'shop.test']);
  assert.deepEqual(await values(report, 'host', 'https://www.SHO'), ['shoes.test', 'shore.test', 'shop.test']);
  assert.deepEqual(await values(report, 'host', 'x'), []);
  assert.deepEqual(await values(report, 'host', '.*'), []);
  assert.deepEqual(await values({ type: 'ref/resource', uri: 'readiness://reports/{host}/json' }, 'host', 'shop'), ['shop.test']);
  assert.deepEqual(await values({ type: 'ref/prompt', name: 'improve_store_readiness' }, 'host', 'shor'), ['shore.test']);
  assert.deepEqual(await values({ type: 'ref/prompt', name: 'compare_stores' }, 'hosts', 'shoes.test, sho'), ['shoes.test, shore.test', 'shoes.test, shop.test']);
  assert.deepEqual(await values({ type: 'ref/resource', uri: 'readiness://index/{vertical}' }, 'vertical', 'b'), ['beauty', 'books_media']);
  // A raw JSON-RPC completion, as a plain client sends it.
  const raw = await postMcp(app, { jsonrpc: '2.0', id: 3, method: 'completion/complete', params: { ref: report, argument: { name: 'host', value: 'o' } } });
  assert.deepEqual(raw.body.result.completion.values, ['other.test']);
});

test('completion answers stay small whatever is typed: a 63 KB host list completes to nothing, a full list offers no sixth host', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 40 });
  const compare = { type: 'ref/prompt', name: 'compare_stores' };
  const huge = `${'a.test, '.repeat(8000)}sho`; // about 63 KB, under the 64 KiB body cap
  const raw = await postMcp(app, { jsonrpc: '2.0', id: 1, method: 'completion/complete', params: { ref: compare, argument: { name: 'hosts', value: huge } } });
  assert.equal(raw.status, 200);
  assert.deepEqual(raw.body.result.completion.values, []);
  assert.ok(JSON.stringify(raw.body).length < 1000, `answer of ${JSON.stringify(raw.body).length} bytes`);
  const long = await postMcp(app, { jsonrpc: '2.0', id: 2, method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'readiness://reports/{host}' }, argument: { name: 'host', value: 's'.repeat(60_000) } } });
  assert.deepEqual(long.body.result.completion.values, []);
  const client = await connectMcp(t, app);
  const values = async (value: string) => (await client.complete({ ref: { type: 'ref/prompt', name: 'compare_stores' }, argument: { name: 'hosts', value } })).completion.values;
  assert.deepEqual(await values('a.test, b.test, c.test, d.test, sho'), ['a.test, b.test, c.test, d.test, shop.test']);
  assert.deepEqual(await values('a.test, b.test, c.test, d.test, e.test, sho'), []);
});

test('the Markdown report resource is served after the untrusted-content note, and its description says so', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'noted.test', score: 60 });
  const client = await connectMcp(t, app);
  const text = textOf((await client.readResource({ uri: 'readiness://reports/noted.test' })).contents);
  assert.ok(text.startsWith(`${UNTRUSTED_NOTE}\n\n# noted.test`), text.slice(0, 300));
  const { resourceTemplates } = await client.listResourceTemplates();
  const markdown = resourceTemplates.find((r) => r.uriTemplate === 'readiness://reports/{host}');
  assert.match(markdown?.description ?? '', /untrusted page content quoted from the store/);
});
