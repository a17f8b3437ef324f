// npm run build: compiles the service to dist/ (tsc, tsconfig.build.json) and copies beside it the files the code
// reads at run time relative to itself (styles, the console script, the check catalogue, the changelog), so
// `node dist/server/main.js` runs with no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

mkdirSync('dist/docs', { recursive: true });
cpSync('public', 'dist/public', { recursive: true });
cpSync('docs/checks.md', 'dist/docs/checks.md');
cpSync('CHANGELOG.md', 'dist/CHANGELOG.md');
