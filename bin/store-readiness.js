#!/usr/bin/env node
// The package's command: the compiled command line (dist/, built by `npm run build`, which `prepare` runs on
// install from a checkout and on `npm pack`). No TypeScript loader at run time.
const { main } = await import('../dist/server/cli.js');
await main();
