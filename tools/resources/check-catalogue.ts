// The check catalogue: docs/checks.md itself, read once at start, so the resource and the document cannot differ.
import { readFileSync } from 'node:fs';
import { RESOURCE_SCHEME, defineResource } from './resource.js';

export const CHECK_CATALOGUE_FILE = new URL('../../docs/checks.md', import.meta.url);
const catalogue = readFileSync(CHECK_CATALOGUE_FILE, 'utf8');

export const checkCatalogue = defineResource({
  name: 'check_catalogue',
  title: 'The audit catalogue: every check, its points and its fix',
  description:
    'The scoring model of the audit as Markdown: what the scanner fetches, the checks of each pillar with their points, the hard blocks that cap a score, the grade bands and the fix for every check. Read it to explain what a check means or why a store lost points.',
  uri: `${RESOURCE_SCHEME}checks`,
  mimeType: 'text/markdown',
  read: async () => catalogue,
});
