// Golden files: compare a JSON document with test/golden/<name>.json. UPDATE_GOLDEN=1 (npm run golden) rewrites it;
// a missing golden is written on a developer machine but fails under CI=true, so CI never blesses its own output.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const GOLDEN_DIR = fileURLToPath(new URL('../golden/', import.meta.url));

export function assertGolden(name: string, actual: unknown): void {
  const file = `${GOLDEN_DIR}${name}.json`;
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  const write = () => {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
  };
  if (process.env.UPDATE_GOLDEN === '1') return write();
  if (!existsSync(file)) {
    if (process.env.CI === 'true') assert.fail(`test/golden/${name}.json is missing: run \`npm run golden\` and commit it.`);
    return write();
  }
  const expected: unknown = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(JSON.parse(text), expected, `${name} differs from test/golden/${name}.json; if the change is intended, run \`npm run golden\` and review the diff.`);
}
