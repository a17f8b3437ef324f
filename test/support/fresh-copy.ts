// A copy of the project as a clone has it (tracked and new files, not ignored ones), with this checkout's
// node_modules linked in: for the tests that build or pack the project as a fresh machine would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './child-server.js';

/** The project's files as a clone has them (tracked and new, not ignored), with this checkout's node_modules. */
export function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'srk-clone-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(REPO_ROOT, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(dir, file));
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

