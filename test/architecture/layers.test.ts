// The folder rules of .dependency-cruiser.cjs, as `npm run lint` runs them: the real tree passes, and a planted
// back-edge (the audit engine importing the database) fails. The planted tree lives in a temporary folder with the
// project's folder names, so the source tree is never touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseOptions, type IReporterOutput } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs');
const ROOT = new URL('../..', import.meta.url).pathname;

async function violations(baseDir: string, paths: string[]): Promise<string[]> {
  const options: ICruiseOptions = {
    ...config.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    tsConfig: undefined,
  };
  const result: IReporterOutput = await cruise(paths, options);
  if (typeof result.output === 'string') throw new Error('expected a JSON result');
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('every folder in the layer table may import only folders listed before it', () => {
  const layers: Record<string, string[]> = config.LAYERS;
  const order = Object.keys(layers);
  for (const [folder, below] of Object.entries(layers)) {
    for (const dep of below) assert.ok(order.indexOf(dep) < order.indexOf(folder), `${folder} may import ${dep}, which sits above it`);
  }
});

test('the project tree follows the layer rules', async () => {
  const found = await violations(ROOT, ['.']);
  assert.deepEqual(found, []);
});

test('a planted back-edge fails: scan/ importing db/, and two folders importing each other', async (t) => {
  const dir = plant({
    'db/repo.ts': "export interface Repository { ping(): void }\n",
    'scan/engine.ts': "import type { Repository } from '../db/repo.ts';\nexport type Uses = Repository;\n",
    'tools/a.ts': "import { b } from '../rest/b.ts';\nexport const a = (): number => b + 1;\n",
    'rest/b.ts': "import { a } from '../tools/a.ts';\nexport const b = 1;\nexport const useA = a;\n",
    'scan/http.ts': "import express from 'express';\nexport const app = express;\n",
    'scan/documents/reads.ts': "import { id } from '../checks/check.ts';\nexport const reads = id;\n",
    'scan/checks/check.ts': "export const id = 'x';\n",
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const found = await violations(dir, ['db', 'scan', 'tools', 'rest']);
  assert.ok(found.includes('scan-imports-only-below: scan/engine.ts → db/repo.ts'), found.join('\n'));
  assert.ok(found.includes('tools-imports-only-below: tools/a.ts → rest/b.ts'), found.join('\n'));
  assert.ok(found.includes('scan-documents-imports-only-below: scan/documents/reads.ts → scan/checks/check.ts'), found.join('\n'));
  assert.ok(found.some((v) => v.startsWith('no-circular:')), found.join('\n'));
});

test('the surfaces stay apart: mcp/ and pages/ import no rest/, well-known/ neither the REST router nor mcp/', async (t) => {
  const dir = plant({
    'rest/router.ts': 'export const router = 1;\n',
    'rest/routes.ts': 'export const ROUTES: number[] = [];\n',
    'mcp/server.ts': "import { router } from '../rest/router.ts';\nexport const mcp = router;\n",
    'pages/home.ts': "import { ROUTES } from '../rest/routes.ts';\nexport const home = ROUTES;\n",
    'well-known/card.ts': "import { mcp } from '../mcp/server.ts';\nexport const card = mcp;\n",
    'well-known/links.ts': "import { router } from '../rest/router.ts';\nexport const links = router;\n",
    'well-known/openapi.ts': "import { ROUTES } from '../rest/routes.ts';\nexport const openapi = ROUTES;\n",
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const found = await violations(dir, ['rest', 'mcp', 'pages', 'well-known']);
  assert.ok(found.includes('mcp-imports-only-below: mcp/server.ts → rest/router.ts'), found.join('\n'));
  assert.ok(found.includes('pages-imports-only-below: pages/home.ts → rest/routes.ts'), found.join('\n'));
  assert.ok(found.includes('well-known-imports-only-below: well-known/card.ts → mcp/server.ts'), found.join('\n'));
  assert.ok(found.includes('well-known-reads-no-router: well-known/links.ts → rest/router.ts'), found.join('\n'));
  assert.ok(!found.some((v) => v.includes('well-known/openapi.ts')), `the route table is readable: ${found.join('\n')}`);
});

test('the monitoring worker may not import the HTTP layer: a planted import of rest/ fails', async (t) => {
  const dir = plant({
    'rest/limits.ts': 'export const spend = (): boolean => true;\n',
    'server/monitoring.ts': "import { spend } from '../rest/limits.ts';\nexport const tick = (): boolean => spend();\n",
    'server/app.ts': "import { spend } from '../rest/limits.ts';\nexport const start = (): boolean => spend();\n",
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const found = await violations(dir, ['rest', 'server']);
  assert.deepEqual(found, ['monitoring-worker-knows-no-http: server/monitoring.ts → rest/limits.ts']);
});
