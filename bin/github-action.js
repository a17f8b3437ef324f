#!/usr/bin/env node
// The GitHub Action's entry (action.yml): runs server/github-action.ts from the action's own checkout through tsx,
// resolved from this file's folder, since the runner has no build of the project. Anything it did not expect (a
// required input missing) is an error annotation and exit 2, like a scan that could not run.
import { register } from 'tsx/esm/api';

register();
try {
  const { runAction } = await import('../server/github-action.ts');
  process.exitCode = await runAction();
} catch (err) {
  process.stdout.write(`::error::${String(err instanceof Error ? err.message : err).replace(/\r?\n/g, ' ')}\n`);
  process.exitCode = 2;
}
