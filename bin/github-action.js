#!/usr/bin/env node
// The GitHub Action's entry (action.yml): runs server/github-action.ts from the action's own checkout through tsx,
// resolved from this file's folder, since the runner has no build of the project.
import { register } from 'tsx/esm/api';

register();
const { runAction } = await import('../server/github-action.ts');
process.exitCode = await runAction();
