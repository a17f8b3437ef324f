// The evidence of a bot wall (docs/checks.md §5): status, server, cf-mitigated and the page title.
import type { HttpResponse } from '../artifacts.js';
import { quote, snippet } from './evidence.js';
import { header } from '../documents/resources.js';
import { titleOf } from '../documents/challenge.js';

/** Status, server, cf-mitigated and title: what docs/checks.md §5 asks the bot-wall evidence to show. */
export function blockEvidence(res: HttpResponse | null): string {
  if (!res) return '';
  const parts = [`${res.status}`];
  const server = header(res, 'server');
  if (server) parts.push(`server: ${snippet(server, 40)}`);
  const cf = header(res, 'cf-mitigated');
  if (cf) parts.push(`cf-mitigated: ${snippet(cf, 40)}`);
  const title = titleOf(res);
  if (title) parts.push(`title ${quote(title, 80)}`);
  return parts.join(', ');
}
