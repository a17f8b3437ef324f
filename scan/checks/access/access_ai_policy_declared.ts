// Has the merchant said what AI systems may do with the pages? A Content-Signal line or explicit robots.txt groups
// for several AI tokens count; which way the policy goes (allow or refuse training) does not matter here.
import { defineCheck } from '../../check.js';
import { AI_TOKENS, normaliseToken } from '../../robots.js';
import { describe } from '../evidence.js';

const AI = new Set(AI_TOKENS.map(normaliseToken));

export default defineCheck({
  id: 'access_ai_policy_declared',
  pillar: 'access',
  order: 6,
  points: 1,
  partialPoints: 0,
  label: 'AI usage policy declared',
  title: 'robots.txt declares an AI usage policy',
  failureTitle: 'Declare your AI usage policy',
  why: 'A declared policy (Content Signals or named AI groups) tells agents they may quote and act on your pages, instead of leaving them to guess from the `*` group.',
  how: 'Add a `Content-Signal:` line to the `User-agent: *` group (and to each named AI group) stating `search=yes, ai-input=yes` and your choice for `ai-train`, or give the main AI agents explicit groups, so agents know they may quote and act on your pages.',
  run(a) {
    if (!a.robots.present) return { status: 'fail', evidence: `No robots.txt (${describe(a.robotsTxt)}).` };
    const named = a.robots.groups.filter((g) => AI.has(g));
    if (a.robots.contentSignal) {
      return { status: 'pass', evidence: `robots.txt has a Content-Signal line${named.length > 0 ? `; AI groups: ${named.join(', ')}` : ''}.` };
    }
    if (named.length >= 3) return { status: 'pass', evidence: `robots.txt has groups for ${named.length} AI agents: ${named.join(', ')}.` };
    return {
      status: 'fail',
      evidence: `No Content-Signal line and ${named.length === 0 ? 'no AI agent groups' : `only ${named.length} AI group${named.length > 1 ? 's' : ''} (${named.join(', ')})`} in robots.txt.`,
    };
  },
});
