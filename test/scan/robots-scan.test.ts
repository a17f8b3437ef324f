// robots.txt group structure end to end: GET /api/v1/scan on the real app against loopback stores that are complete
// except for their robots.txt, checking the access_live_agents_robots verdict, the H1 cap and the blocked agents.
// Each robots.txt is one that robots-parser read alone gets wrong (RFC 9309 §2.2.1 groups).
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { ScanResult } from '../../schemas/scan-result.js';
import { completeStore, text } from '../fixtures/stores.js';
import { LIVE_AGENT_TOKENS } from '../../scan/documents/robots.js';

const [first, ...rest] = LIVE_AGENT_TOKENS;

const CASES: { name: string; robots: string; status: 'pass' | 'partial' | 'fail'; capped: boolean; blocked: string[] }[] = [
  {
    name: 'a live agent named in a group without rules is allowed, not sent to a `*` that disallows all',
    robots: 'User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\nContent-Signal: search=yes',
    status: 'partial',
    capped: false,
    blocked: LIVE_AGENT_TOKENS.filter((t) => t !== 'OAI-SearchBot'),
  },
  {
    name: 'a Sitemap line between user-agent lines does not end the group',
    robots: 'User-agent: Claude-SearchBot\nUser-agent: Claude-User\nSitemap: https://s/sm.xml\nUser-agent: ClaudeBot\nDisallow: /',
    status: 'partial',
    capped: false,
    blocked: ['Claude-SearchBot', 'Claude-User'],
  },
  {
    name: 'all six live agents in one group that a Sitemap line interrupts are all blocked (H1)',
    robots: `User-agent: *\nAllow: /\n\nUser-agent: ${first}\nSitemap: https://s/sm.xml\n${rest.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n`,
    status: 'fail',
    capped: true,
    blocked: [...LIVE_AGENT_TOKENS],
  },
  {
    name: 'the Disallow under "User agent: X" does not land on `*`',
    robots: 'User-agent: *\nDisallow: /cart\n\nUser agent: BadBot\nDisallow: /\n',
    status: 'pass',
    capped: false,
    blocked: [],
  },
  {
    name: 'the Disallow under "Useragent: X" does not land on `*`',
    robots: 'User-agent: *\nDisallow: /cart\n\nUseragent: BadBot\nDisallow: /\n',
    status: 'pass',
    capped: false,
    blocked: [],
  },
];

test('GET /api/v1/scan reads robots.txt groups as RFC 9309 does', async (t) => {
  const app = await startApp(t);
  for (const c of CASES) {
    await t.test(c.name, async (st) => {
      const shop = await startStoreFrom((origin) => ({ ...completeStore(origin), '/robots.txt': text(c.robots) }));
      st.after(() => shop.close());
      const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const parsed = ScanResult.safeParse(res.body);
      assert.ok(parsed.success, parsed.error?.message);
      const body = parsed.data;
      assert.equal(shop.hits('/robots.txt'), 1);
      const check = body.pillars.flatMap((p) => p.checks).find((x) => x.id === 'access_live_agents_robots');
      assert.ok(check, 'access_live_agents_robots is reported');
      assert.equal(check.status, c.status, check.evidence);
      assert.equal(body.capped, c.capped);
      assert.equal(body.cap_reason, c.capped ? 'H1' : null);
      assert.deepEqual(body.protocols.agents_blocked, c.blocked);
    });
  }
});
