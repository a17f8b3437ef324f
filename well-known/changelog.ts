// GET /changelog.md: the repository's CHANGELOG.md as it is, read once at start. Breaking changes are announced
// here (docs/decisions.md "API"): llms.txt, the discovery document and deprecated endpoints (rel="deprecation")
// link to it.
import { readFileSync } from 'node:fs';

const SOURCE = new URL('../CHANGELOG.md', import.meta.url);

export function changelogMd(): string {
  return readFileSync(SOURCE, 'utf8');
}

/** The newest version the changelog describes: its first "## x.y.z" heading. */
export function latestChangelogVersion(markdown: string): string | null {
  return /^## (\d+\.\d+\.\d+)\b/m.exec(markdown)?.[1] ?? null;
}
