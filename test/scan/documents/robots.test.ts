// robots.txt parsing under RFC 9309 (group structure, group choice, longest match, Allow on ties, status handling),
// the RFC cases of Google's reference parser tests as a table, and the live-agent classification on the real retailer
// files of the shared corpus (expected table written by hand).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AI_TOKENS, LIVE_AGENT_TOKENS, SCANNER_TOKEN, SEARCH_ENGINE_TOKENS, liveAgentAccess, normaliseToken, parseRobots } from '../../../scan/documents/robots.js';
import { failResource, readRealFixture, requireRealFixtures, response, robotsFrom } from '../../helpers/artifacts.js';

describe('parseRobots', () => {
  it('picks the named group over *, case-insensitively, and does not inherit * rules', () => {
    const r = robotsFrom('User-agent: *\nDisallow: /\n\nUser-agent: oai-searchbot\nDisallow: /cart\n');
    assert.equal(r.isAllowed('OAI-SearchBot', '/'), true);
    assert.equal(r.isAllowed('OAI-SearchBot', '/cart'), false);
    assert.equal(r.isAllowed('ChatGPT-User', '/'), false);
    assert.deepEqual(r.groups, ['*', 'oai-searchbot']);
  });

  it('uses the longest match and lets Allow win a tie', () => {
    const r = robotsFrom('User-agent: *\nDisallow: /shop\nAllow: /shop/products\nDisallow: /x\nAllow: /x\n');
    assert.equal(r.isAllowed('Claude-User', '/shop/cart'), false);
    assert.equal(r.isAllowed('Claude-User', '/shop/products/mug'), true);
    assert.equal(r.isAllowed('Claude-User', '/x'), true);
  });

  it('accepts absolute URLs from any origin and compares only path and query', () => {
    const r = robotsFrom('User-agent: *\nDisallow: /*?sort=\n');
    assert.equal(r.isAllowed('PerplexityBot', 'https://other.example/c?sort=price'), false);
    assert.equal(r.isAllowed('PerplexityBot', 'https://store.example/c'), true);
  });

  it('merges groups that name the same token (RFC 9309 §2.2.1)', () => {
    const r = robotsFrom('User-agent: ChatGPT-User\nDisallow: /a\n\nUser-agent: chatgpt-user/2.0\nDisallow: /b\n');
    assert.equal(r.isAllowed('ChatGPT-User', '/a'), false);
    assert.equal(r.isAllowed('ChatGPT-User', '/b'), false);
    assert.equal(r.isAllowed('ChatGPT-User', '/c'), true);
  });

  it('treats a missing file and 4xx as allow-all, 5xx and unreachable as disallow-all', () => {
    const missing = robotsFrom('', 404);
    assert.equal(missing.present, false);
    assert.equal(missing.status, 404);
    assert.equal(missing.isAllowed('GPTBot', '/'), true);
    const down = robotsFrom('', 503);
    assert.equal(down.present, false);
    assert.equal(down.status, 503);
    assert.equal(down.isAllowed('Claude-User', '/'), false);
    const timeout = parseRobots(failResource('https://store.example/robots.txt', 'timeout'));
    assert.equal(timeout.status, null);
    assert.equal(timeout.isAllowed('Claude-User', '/'), false);
    const notFetched = parseRobots(failResource('https://store.example/robots.txt', 'not-fetched'));
    assert.equal(notFetched.isAllowed('Claude-User', '/'), true);
  });

  it('collects sitemaps, Content-Signal and unknown lines', () => {
    const r = robotsFrom(
      '\uFEFF# comment\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\nSitemap: https://store.example/sitemap.xml\nthis is not a field\nFoo: bar\n',
    );
    assert.equal(r.present, true);
    assert.deepEqual(r.sitemaps, ['https://store.example/sitemap.xml']);
    assert.equal(r.contentSignal, true);
    assert.equal(r.parseErrors, 2);
  });

  it('reads a file cut at the size cap', () => {
    const res = response('https://store.example/robots.txt', 'User-agent: *\nDisallow: /\n', { contentType: 'text/plain' });
    const r = parseRobots({ ok: false, reason: 'too-large', detail: 'cap', url: res.url, res });
    assert.equal(r.isAllowed('Claude-User', '/'), false);
  });

  it('exports the token lists', () => {
    assert.equal(LIVE_AGENT_TOKENS.length, 6);
    for (const t of LIVE_AGENT_TOKENS) assert.ok((AI_TOKENS as readonly string[]).includes(t));
    for (const t of ['GPTBot', 'ClaudeBot', 'Google-Extended', 'CCBot', 'Applebot-Extended', 'Bytespider', 'Meta-ExternalAgent', 'anthropic-ai', 'cohere-ai']) {
      assert.ok((AI_TOKENS as readonly string[]).includes(t), t);
    }
    assert.equal(SCANNER_TOKEN, 'store-readiness');
  });
});

describe('group structure (RFC 9309 §2.2.1)', () => {
  it('gives a named group without rules its own group: its agent is allowed, not sent to `*`', () => {
    const r = robotsFrom('User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\nContent-Signal: search=yes\n');
    assert.equal(r.isAllowed('OAI-SearchBot', '/'), true);
    assert.equal(r.isAllowed('OAI-SearchBot', '/products/mug'), true);
    assert.equal(r.isAllowed('ChatGPT-User', '/'), false);
    assert.deepEqual(r.groups, ['*', 'oai-searchbot']);
    const v = liveAgentAccess(r, []);
    assert.equal(v.verdict, 'partly');
    assert.deepEqual(v.blocked, ['ChatGPT-User', 'Claude-SearchBot', 'Claude-User', 'PerplexityBot', 'Perplexity-User']);
    // The same at the end of the file, with nothing at all after the user-agent line.
    const last = robotsFrom('User-agent: *\nDisallow: /\nUser-agent: Claude-User');
    assert.equal(last.isAllowed('Claude-User', '/'), true);
    assert.equal(last.isAllowed('Claude-SearchBot', '/'), false);
  });

  it('does not end a run of user-agent lines at Sitemap, Crawl-delay, Content-Signal or unknown lines', () => {
    const r = robotsFrom('User-agent: Claude-SearchBot\nUser-agent: Claude-User\nSitemap: https://s/sm.xml\nUser-agent: ClaudeBot\nDisallow: /\n');
    for (const token of ['Claude-SearchBot', 'Claude-User', 'ClaudeBot']) assert.equal(r.isAllowed(token, '/'), false, token);
    assert.equal(r.isAllowed('OAI-SearchBot', '/'), true);
    assert.deepEqual(r.sitemaps, ['https://s/sm.xml']);
    assert.deepEqual(liveAgentAccess(r, []).blocked, ['Claude-SearchBot', 'Claude-User']);
    for (const between of ['Crawl-delay: 10', 'Content-Signal: search=yes', 'X-Unknown: 1', 'just words']) {
      const b = robotsFrom(`User-agent: OAI-SearchBot\n${between}\nUser-agent: ChatGPT-User\nDisallow: /\n`);
      assert.equal(b.isAllowed('OAI-SearchBot', '/'), false, between);
      assert.equal(b.isAllowed('ChatGPT-User', '/'), false, between);
    }
  });

  it('caps when all six live tokens share one group, even with a Sitemap line among them', () => {
    const [first, ...rest] = LIVE_AGENT_TOKENS;
    const text = `User-agent: *\nAllow: /\n\nUser-agent: ${first}\nSitemap: https://s/sm.xml\n${rest.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n`;
    assert.equal(liveAgentAccess(robotsFrom(text), []).verdict, 'blocked');
  });

  it('does not hand the rules under a misspelt user-agent line to the group above', () => {
    for (const misspelt of ['User agent: BadBot', 'Useragent: BadBot', 'User-agent BadBot', 'User_agent: BadBot']) {
      const r = robotsFrom(`User-agent: *\nDisallow: /cart\n\n${misspelt}\nDisallow: /\n`);
      assert.equal(r.isAllowed('OAI-SearchBot', '/'), true, misspelt);
      assert.equal(r.isAllowed('OAI-SearchBot', '/cart'), false, `${misspelt}: the * group keeps its own rules`);
      assert.equal(liveAgentAccess(r, ['https://store.example/products/mug']).verdict, 'allowed', misspelt);
      assert.equal(r.parseErrors, 1, `${misspelt} is still reported as unparseable`);
      assert.deepEqual(r.groups, ['*']);
    }
    // Under a live agent's group as well: its rules stay its own.
    const named = robotsFrom('User-agent: OAI-SearchBot\nDisallow: /cart\n\nUser agent: BadBot\nDisallow: /\n');
    assert.equal(named.isAllowed('OAI-SearchBot', '/'), true);
  });

  it('lets user-agent lines after a misspelt one form their group as usual, and ignores one inside a run', () => {
    const after = robotsFrom('User-agent: *\nDisallow: /cart\n\nUser agent: BadBot\nUser-agent: GPTBot\nDisallow: /\n');
    assert.equal(after.isAllowed('GPTBot', '/'), false);
    assert.equal(after.isAllowed('ChatGPT-User', '/'), true);
    const inside = robotsFrom('User-agent: OAI-SearchBot\nUseragent: BadBot\nUser-agent: ChatGPT-User\nDisallow: /\n');
    assert.equal(inside.isAllowed('OAI-SearchBot', '/'), false);
    assert.equal(inside.isAllowed('ChatGPT-User', '/'), false);
  });

  it('ignores rules before the first user-agent line', () => {
    const r = robotsFrom('Disallow: /\nSitemap: https://s/sm.xml\nUser-agent: *\nDisallow: /cart\n');
    assert.equal(r.isAllowed('Claude-User', '/'), true);
    assert.equal(r.isAllowed('Claude-User', '/cart'), false);
  });

  it('reads the product token up to the first character that cannot be in one', () => {
    const r = robotsFrom('User-agent: ChatGPT-User/2.0\nUser-agent: PerplexityBot (+https://perplexity.ai)\nUser-agent: * # everyone\nDisallow: /\n');
    assert.deepEqual(r.groups, ['chatgpt-user', 'perplexitybot', '*']);
    assert.equal(r.isAllowed('ChatGPT-User', '/'), false);
    assert.equal(r.isAllowed('PerplexityBot', '/'), false);
    // Every token the audit checks is read back as itself, so a group naming it is found.
    for (const t of [...AI_TOKENS, ...SEARCH_ENGINE_TOKENS, SCANNER_TOKEN]) assert.equal(normaliseToken(t), t.toLowerCase(), t);
  });
});

describe('liveAgentAccess', () => {
  it('blocks a token disallowed at / or on every product path, restricts one disallowed on some', () => {
    const r = robotsFrom('User-agent: *\nDisallow: /products/b\n\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: Claude-User\nDisallow: /products/\n');
    const v = liveAgentAccess(r, ['https://store.example/products/a', 'https://store.example/products/b']);
    assert.equal(v.verdict, 'partly');
    assert.deepEqual(v.blocked, ['Claude-User', 'PerplexityBot']);
    assert.deepEqual(v.restricted, ['OAI-SearchBot', 'ChatGPT-User', 'Claude-SearchBot', 'Perplexity-User']);
  });
});

// Expected classification of the six live agents, read from each file by hand: at `/`, and at a product path typical
// of the site. The 2019 Protego files predate AI bots (only `*` and old crawlers apply); the 2026 gptfirewall files
// are lower-cased by their archiver, which RFC 9309's case-insensitive token matching must not care about.
const REAL_ROBOTS: { file: string; pdp: string; root: string; withPdp: string; blocked?: string[]; note: string }[] = [
  { file: 'amazon.com--2019-protego.robots.txt', pdp: '/dp/B07C8KMQQ6', root: 'allowed', withPdp: 'allowed', note: '* allows / and /dp/<asin>; only EtaoSpider is disallowed' },
  { file: 'bestbuy.com--2019-protego.robots.txt', pdp: '/site/belkin-soundform-elite/6390217.p?skuId=6390217', root: 'allowed', withPdp: 'allowed', note: 'CRLF; * blocks /site/builder etc., not product pages' },
  { file: 'ebay.com--2019-protego.robots.txt', pdp: '/itm/302474151804', root: 'allowed', withPdp: 'allowed', note: '/itm/*_nkw and ?fits only' },
  { file: 'etsy.com--2019-protego.robots.txt', pdp: '/listing/123456789/handmade-mug', root: 'allowed', withPdp: 'allowed', note: 'Spinn3r blocked; /listing/*/stubs/* only' },
  { file: 'hm.com--2019-protego.robots.txt', pdp: '/en_gb/productpage.0685816001.html', root: 'allowed', withPdp: 'allowed', note: 'empty Disallow' },
  { file: 'homedepot.com--2019-protego.robots.txt', pdp: '/p/Husky-Tool-Set/312345678', root: 'allowed', withPdp: 'allowed', note: 'wildcards on checkout/order pages' },
  { file: 'ikea.com--2019-protego.robots.txt', pdp: '/gb/en/p/vallentuna-sofa-bed-module-s99277508/', root: 'allowed', withPdp: 'allowed', note: 'single * group' },
  { file: 'johnlewis.com--2019-protego.robots.txt', pdp: '/google-nest-mini/p4781720', root: 'allowed', withPdp: 'allowed', note: 'ad bots have own groups' },
  { file: 'llmstxt.org--sitemap-only.robots.txt', pdp: '/intro.html', root: 'allowed', withPdp: 'allowed', note: 'no group at all' },
  { file: 'newegg.com--2019-protego.robots.txt', pdp: '/p/N82E16824012345', root: 'allowed', withPdp: 'allowed', note: 'two * groups merged; ChangeDetection/008/Nutch blocked' },
  { file: 'nike.com--2019-protego.robots.txt', pdp: '/t/air-force-1-07-mens-shoes-jBrhbr/CW2288-111', root: 'allowed', withPdp: 'allowed', note: '*/p/ disallowed but PDPs live under /t/' },
  { file: 'target.com--2019-protego.robots.txt', pdp: '/p/some-product/-/A-12345678', root: 'allowed', withPdp: 'allowed', note: 'single * group' },
  { file: 'shutterstock.com--2026-01-lowercased-gptfirewall.robots.txt', pdp: '/image-photo/red-apple-123456', root: 'partly', withPdp: 'partly', blocked: ['OAI-SearchBot'], note: 'oai-searchbot: disallow / (allow */image-* does not reopen /); others fall back to *' },
  { file: 'stock.adobe.com--2026-01-lowercased-gptfirewall.robots.txt', pdp: '/images/red-apple/123456', root: 'allowed', withPdp: 'allowed', note: 'only training bots (gptbot, ccbot, anthropic-ai, claude-web, google-extended, applebot-extended) disallowed' },
  { file: 'tripadvisor.com--2026-01-lowercased-gptfirewall.robots.txt', pdp: '/attraction_product_review-g188590-d12345678', root: 'allowed', withPdp: 'partly', note: 'chatgpt-user/oai-searchbot groups add disallow /*-g188*' },
  { file: 'yelp.com--2026-01-lowercased-gptfirewall.robots.txt', pdp: '/biz/some-cafe-san-francisco', root: 'blocked', withPdp: 'blocked', blocked: [...LIVE_AGENT_TOKENS], note: 'default deny: * disallow /, no live agent named' },
];

describe('real robots.txt corpus', () => {
  it('classifies the live agents in every real file as written in the table', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const files = readdirSync(join(dir, 'robots')).filter((f) => f.endsWith('.robots.txt')).sort();
    assert.deepEqual(files, REAL_ROBOTS.map((r) => r.file).sort(), 'the table covers every file of the corpus');
    for (const row of REAL_ROBOTS) {
      const r = robotsFrom(readRealFixture(dir, join('robots', row.file)));
      const root = liveAgentAccess(r, []);
      assert.equal(root.verdict, row.root, `${row.file} at /: ${row.note}`);
      const withPdp = liveAgentAccess(r, [`https://store.example${row.pdp}`]);
      assert.equal(withPdp.verdict, row.withPdp, `${row.file} at ${row.pdp}: ${row.note}`);
      if (row.blocked) assert.deepEqual(root.blocked, row.blocked, row.file);
    }
  });

  it('reads the details that the table relies on', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const read = (f: string) => robotsFrom(readRealFixture(dir, join('robots', f)));
    const yelp = read('yelp.com--2026-01-lowercased-gptfirewall.robots.txt');
    assert.equal(yelp.isAllowed('Googlebot', '/biz/some-cafe'), true, 'googlebot has its own allow group');
    assert.equal(yelp.isAllowed('GPTBot', '/'), false);
    const shutter = read('shutterstock.com--2026-01-lowercased-gptfirewall.robots.txt');
    assert.equal(shutter.isAllowed('OAI-SearchBot', '/image-photo/red-apple-123456'), true, 'allow */image-* beats disallow /');
    assert.equal(shutter.isAllowed('OAI-SearchBot', '/'), false);
    const trip = read('tripadvisor.com--2026-01-lowercased-gptfirewall.robots.txt');
    const g188 = 'https://www.tripadvisor.com/attraction_product_review-g188590-d1';
    assert.deepEqual(liveAgentAccess(trip, [g188]).blocked, ['OAI-SearchBot', 'ChatGPT-User'], 'the only sampled path is disallowed');
    const two = liveAgentAccess(trip, [g188, 'https://www.tripadvisor.com/attraction_product_review-g60763-d1']);
    assert.deepEqual(two.restricted, ['OAI-SearchBot', 'ChatGPT-User'], 'one of two sampled paths is disallowed');
    assert.deepEqual(two.blocked, []);
    assert.equal(trip.sitemaps.length, 12);
    const adobe = read('stock.adobe.com--2026-01-lowercased-gptfirewall.robots.txt');
    assert.ok(['gptbot', 'ccbot', 'anthropic-ai', 'google-extended'].every((g) => adobe.groups.includes(g)));
    const sitemapOnly = read('llmstxt.org--sitemap-only.robots.txt');
    assert.deepEqual(sitemapOnly.groups, []);
    assert.deepEqual(sitemapOnly.sitemaps, ['https://llmstxt.org/sitemap.xml']);
    for (const row of REAL_ROBOTS) assert.equal(read(row.file).parseErrors, 0, `${row.file} parses cleanly`);
  });
});

// RFC 9309 cases from the tests of Google's reference parser (google/robotstxt, robots_test.cc, Apache License
// 2.0), one row per EXPECT: robots.txt body, the crawler's token, the URL, and whether it may fetch it. Matching is
// left to robots-parser; these rows check that the groups we rebuild and hand to it give Google's answers.
//
// Ported: ID_LineSyntax_Line, ID_LineSyntax_Groups, ID_LineSyntax_Groups_OtherRules, ID_REPLineNamesCaseInsensitive,
// ID_UserAgentValueCaseInsensitive, ID_GlobalGroups_Secondary, ID_AllowDisallow_Value_CaseSensitive,
// ID_LongestMatch, ID_Encoding, ID_SpecialCharacters, and GoogleOnly_DocumentationChecks (Google's documentation
// examples, but every one of them is plain §2.2.2–2.2.3 matching: longest match, `*`, `$`, case-sensitive paths).
// ID_LinesNumbersAreCountedCorrectly, TestMaybeEscapePattern, ID_UTF8ByteOrderMarkIsSkipped and
// ID_NonStandardLineExample_Sitemap check parser internals (line counts, escaping, handler calls); their inputs are
// kept and checked for what those internals stand for (see the rows and the test below the table).
//
// Left out:
// - ID_LineSyntax_Line's "user-agent FooBot / disallow /" without colons: Google assumes the missing colon (its own
//   comment calls this Google-specific); under RFC 9309 §2.2 both lines are unparseable and FooBot is allowed.
// - GoogleOnly_AcceptUserAgentUpToFirstSpace: a crawler whose own name contains a space ("Foo Bar"); our tokens
//   never do. (We read a group's "Foo Bar" as "foo", which that test's first EXPECT also asks for.)
// - GoogleOnly_IndexHTMLisDirectory ("/index.html" also allowing "/") and GoogleOnly_LineTooLong (lines cut at
//   16,664 bytes): Google-only extensions.
// - GoogleOnly_SystemTest and ID_VerifyValidUserAgentsToObey: edge cases of the C++ API (empty arguments, checking
//   the crawler's own token); the test above checks that every token we use reads back as itself.
// - TestGetPathParamsQuery: how the C++ helper cuts scheme-less strings into paths; our URLs are absolute and read
//   with the WHATWG URL parser.
// - ID_UTF8ByteOrderMarkIsSkipped's partial and broken BOMs: bytes, while we read a decoded string; its BOM in the
//   middle of the file: JavaScript's trim() treats U+FEFF as white space, so we read that line as a rule where Google
//   counts it unknown.
// - ID_Encoding's "Allow: /foo/bar/%62%61%7A" refusing "/foo/bar/baz": RFC 9309 §2.2.2 decodes percent-encoded
//   unreserved characters before comparing, so the RFC answer is "allowed"; Google (and robots-parser) compare
//   the encoded strings. No store writes such a rule, so we keep robots-parser's answer and leave the row out.
// - ID_Encoding's unencoded URLs ("/foo/bar/ツ" refused): Google leaves encoding the URL to its caller; RFC 9309
//   §2.2.2 compares encoded forms, and we encode every URL first. Those two rows are in RFC_NOT_GOOGLE_HARNESS.
type Row = [agent: string, url: string, allowed: boolean];
const GOOGLE_CASES: { test: string; body: string; rows: Row[] }[] = [
  { test: 'ID_LineSyntax_Line (correct)', body: 'user-agent: FooBot\ndisallow: /\n', rows: [['FooBot', 'http://foo.bar/x/y', false]] },
  { test: 'ID_LineSyntax_Line (incorrect)', body: 'foo: FooBot\nbar: /\n', rows: [['FooBot', 'http://foo.bar/x/y', true]] },
  {
    test: 'ID_LineSyntax_Groups',
    body:
      'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\n' +
      'user-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n',
    rows: [
      ['FooBot', 'http://foo.bar/x/b', true],
      ['FooBot', 'http://foo.bar/z/d', true],
      ['FooBot', 'http://foo.bar/y/c', false],
      ['BarBot', 'http://foo.bar/y/c', true],
      ['BarBot', 'http://foo.bar/w/a', true],
      ['BarBot', 'http://foo.bar/z/d', false],
      ['BazBot', 'http://foo.bar/z/d', true],
      ['FooBot', 'http://foo.bar/foo/bar/', false],
      ['BarBot', 'http://foo.bar/foo/bar/', false],
      ['BazBot', 'http://foo.bar/foo/bar/', false],
    ],
  },
  {
    test: 'ID_LineSyntax_Groups_OtherRules (Sitemap)',
    body: 'User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n',
    rows: [['FooBot', 'http://foo.bar/', false], ['BarBot', 'http://foo.bar/', false]],
  },
  {
    test: 'ID_LineSyntax_Groups_OtherRules (unknown line)',
    body: 'User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n',
    rows: [['FooBot', 'http://foo.bar/', false], ['BarBot', 'http://foo.bar/', false]],
  },
  ...['USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n', 'user-agent: FooBot\nallow: /x/\ndisallow: /\n', 'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n'].map((body) => ({
    test: 'ID_REPLineNamesCaseInsensitive',
    body,
    rows: [['FooBot', 'http://foo.bar/x/y', true], ['FooBot', 'http://foo.bar/a/b', false]] as Row[],
  })),
  ...['FOO BAR', 'foo bar', 'FoO bAr'].map((ua) => ({
    test: 'ID_UserAgentValueCaseInsensitive',
    body: `User-Agent: ${ua}\nAllow: /x/\nDisallow: /\n`,
    rows: [
      ['Foo', 'http://foo.bar/x/y', true],
      ['Foo', 'http://foo.bar/a/b', false],
      ['foo', 'http://foo.bar/x/y', true],
      ['foo', 'http://foo.bar/a/b', false],
    ] as Row[],
  })),
  { test: 'ID_GlobalGroups_Secondary (empty)', body: '', rows: [['FooBot', 'http://foo.bar/x/y', true]] },
  {
    test: 'ID_GlobalGroups_Secondary (global)',
    body: 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n',
    rows: [['FooBot', 'http://foo.bar/x/y', false], ['BarBot', 'http://foo.bar/x/y', true]],
  },
  {
    test: 'ID_GlobalGroups_Secondary (only specific)',
    body: 'user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n',
    rows: [['QuxBot', 'http://foo.bar/x/y', true]],
  },
  { test: 'ID_AllowDisallow_Value_CaseSensitive', body: 'user-agent: FooBot\ndisallow: /x/\n', rows: [['FooBot', 'http://foo.bar/x/y', false]] },
  { test: 'ID_AllowDisallow_Value_CaseSensitive', body: 'user-agent: FooBot\ndisallow: /X/\n', rows: [['FooBot', 'http://foo.bar/x/y', true]] },
  { test: 'ID_LongestMatch', body: 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', rows: [['FooBot', 'http://foo.bar/x/page.html', false]] },
  {
    test: 'ID_LongestMatch',
    body: 'user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n',
    rows: [['FooBot', 'http://foo.bar/x/page.html', true], ['FooBot', 'http://foo.bar/x/', false]],
  },
  { test: 'ID_LongestMatch (empty tie)', body: 'user-agent: FooBot\ndisallow: \nallow: \n', rows: [['FooBot', 'http://foo.bar/x/page.html', true]] },
  { test: 'ID_LongestMatch (tie)', body: 'user-agent: FooBot\ndisallow: /\nallow: /\n', rows: [['FooBot', 'http://foo.bar/x/page.html', true]] },
  {
    test: 'ID_LongestMatch',
    body: 'user-agent: FooBot\ndisallow: /x\nallow: /x/\n',
    rows: [['FooBot', 'http://foo.bar/x', false], ['FooBot', 'http://foo.bar/x/', true]],
  },
  { test: 'ID_LongestMatch (tie)', body: 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', rows: [['FooBot', 'http://foo.bar/x/page.html', true]] },
  {
    test: 'ID_LongestMatch',
    body: 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n',
    rows: [['FooBot', 'http://foo.bar/page.html', false], ['FooBot', 'http://foo.bar/page', true]],
  },
  {
    test: 'ID_LongestMatch',
    body: 'user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n',
    rows: [['FooBot', 'http://foo.bar/x/page.html', true], ['FooBot', 'http://foo.bar/x/y.html', false]],
  },
  {
    test: 'ID_LongestMatch (named group does not inherit *)',
    body: 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n',
    rows: [['FooBot', 'http://foo.bar/x/page', true], ['FooBot', 'http://foo.bar/y/page', false]],
  },
  {
    test: 'ID_Encoding (query stays unencoded)',
    body: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n',
    rows: [['FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', true]],
  },
  { test: 'ID_Encoding (3-byte character)', body: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n', rows: [['FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true]] },
  {
    test: 'ID_Encoding (percent-encoded 3-byte character)',
    body: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n',
    rows: [['FooBot', 'http://foo.bar/foo/bar/%E3%83%84', true]],
  },
  {
    test: 'ID_Encoding (percent-encoded unreserved)',
    body: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n',
    rows: [['FooBot', 'http://foo.bar/foo/bar/%62%61%7A', true]],
  },
  {
    test: 'ID_SpecialCharacters (*)',
    body: 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n',
    rows: [
      ['FooBot', 'http://foo.bar/foo/bar/quz', false],
      ['FooBot', 'http://foo.bar/foo/quz', true],
      ['FooBot', 'http://foo.bar/foo//quz', true],
      ['FooBot', 'http://foo.bar/foo/bax/quz', true],
    ],
  },
  {
    test: 'ID_SpecialCharacters ($)',
    body: 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n',
    rows: [
      ['FooBot', 'http://foo.bar/foo/bar', false],
      ['FooBot', 'http://foo.bar/foo/bar/qux', true],
      ['FooBot', 'http://foo.bar/foo/bar/', true],
      ['FooBot', 'http://foo.bar/foo/bar/baz', true],
    ],
  },
  {
    test: 'ID_SpecialCharacters (#)',
    body: 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n',
    rows: [['FooBot', 'http://foo.bar/foo/bar', true], ['FooBot', 'http://foo.bar/foo/quz', false]],
  },
  ...(['/fish', '/fish*'] as const).map((allow) => ({
    test: `GoogleOnly_DocumentationChecks (${allow})`,
    body: `user-agent: FooBot\ndisallow: /\nallow: ${allow}\n`,
    rows: [
      ['FooBot', 'http://foo.bar/bar', false],
      ['FooBot', 'http://foo.bar/fish', true],
      ['FooBot', 'http://foo.bar/fish.html', true],
      ['FooBot', 'http://foo.bar/fish/salmon.html', true],
      ['FooBot', 'http://foo.bar/fishheads', true],
      ['FooBot', 'http://foo.bar/fishheads/yummy.html', true],
      ['FooBot', 'http://foo.bar/fish.html?id=anything', true],
      ['FooBot', allow === '/fish' ? 'http://foo.bar/Fish.asp' : 'http://foo.bar/Fish.bar', false],
      ['FooBot', 'http://foo.bar/catfish', false],
      ['FooBot', 'http://foo.bar/?id=fish', false],
    ] as Row[],
  })),
  {
    test: 'GoogleOnly_DocumentationChecks (/fish/)',
    body: 'user-agent: FooBot\ndisallow: /\nallow: /fish/\n',
    rows: [
      ['FooBot', 'http://foo.bar/bar', false],
      ['FooBot', 'http://foo.bar/fish/', true],
      ['FooBot', 'http://foo.bar/fish/salmon', true],
      ['FooBot', 'http://foo.bar/fish/?salmon', true],
      ['FooBot', 'http://foo.bar/fish/salmon.html', true],
      ['FooBot', 'http://foo.bar/fish/?id=anything', true],
      ['FooBot', 'http://foo.bar/fish', false],
      ['FooBot', 'http://foo.bar/fish.html', false],
      ['FooBot', 'http://foo.bar/Fish/Salmon.html', false],
    ],
  },
  {
    test: 'GoogleOnly_DocumentationChecks (/*.php)',
    body: 'user-agent: FooBot\ndisallow: /\nallow: /*.php\n',
    rows: [
      ['FooBot', 'http://foo.bar/bar', false],
      ['FooBot', 'http://foo.bar/filename.php', true],
      ['FooBot', 'http://foo.bar/folder/filename.php', true],
      ['FooBot', 'http://foo.bar/folder/filename.php?parameters', true],
      ['FooBot', 'http://foo.bar//folder/any.php.file.html', true],
      ['FooBot', 'http://foo.bar/filename.php/', true],
      ['FooBot', 'http://foo.bar/index?f=filename.php/', true],
      ['FooBot', 'http://foo.bar/php/', false],
      ['FooBot', 'http://foo.bar/index?php', false],
      ['FooBot', 'http://foo.bar/windows.PHP', false],
    ],
  },
  {
    test: 'GoogleOnly_DocumentationChecks (/*.php$)',
    body: 'user-agent: FooBot\ndisallow: /\nallow: /*.php$\n',
    rows: [
      ['FooBot', 'http://foo.bar/bar', false],
      ['FooBot', 'http://foo.bar/filename.php', true],
      ['FooBot', 'http://foo.bar/folder/filename.php', true],
      ['FooBot', 'http://foo.bar/filename.php?parameters', false],
      ['FooBot', 'http://foo.bar/filename.php/', false],
      ['FooBot', 'http://foo.bar/filename.php5', false],
      ['FooBot', 'http://foo.bar/php/', false],
      ['FooBot', 'http://foo.bar/filename?php', false],
      ['FooBot', 'http://foo.bar/aaaphpaaa', false],
      ['FooBot', 'http://foo.bar//windows.PHP', false],
    ],
  },
  {
    test: 'GoogleOnly_DocumentationChecks (/fish*.php)',
    body: 'user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n',
    rows: [
      ['FooBot', 'http://foo.bar/bar', false],
      ['FooBot', 'http://foo.bar/fish.php', true],
      ['FooBot', 'http://foo.bar/fishheads/catfish.php?parameters', true],
      ['FooBot', 'http://foo.bar/Fish.PHP', false],
    ],
  },
  { test: 'GoogleOnly_DocumentationChecks (precedence)', body: 'user-agent: FooBot\nallow: /p\ndisallow: /\n', rows: [['FooBot', 'http://example.com/page', true]] },
  { test: 'GoogleOnly_DocumentationChecks (precedence)', body: 'user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', rows: [['FooBot', 'http://example.com/folder/page', true]] },
  { test: 'GoogleOnly_DocumentationChecks (precedence)', body: 'user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', rows: [['FooBot', 'http://example.com/page.htm', false]] },
  {
    test: 'GoogleOnly_DocumentationChecks (precedence)',
    body: 'user-agent: FooBot\nallow: /$\ndisallow: /\n',
    rows: [['FooBot', 'http://example.com/', true], ['FooBot', 'http://example.com/page.html', false]],
  },
  // ID_LinesNumbersAreCountedCorrectly counts 4 directives and a last line of 6 for each line ending; what the
  // counts stand for: the Disallow on line 6 is read and belongs to bar's group, not foo's.
  ...[
    ['LF', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n'],
    ['CRLF', 'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n'],
    ['CR', 'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r'],
    ['no final newline', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /'],
    ['mixed', 'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\n\nDisallow: /'],
  ].map(([ending, body]) => ({
    test: `ID_LinesNumbersAreCountedCorrectly (${ending})`,
    body,
    rows: [['bar', 'http://foo.bar/x', false], ['foo', 'http://foo.bar/x', true]] as Row[],
  })),
  // TestMaybeEscapePattern: a pattern's non-ASCII characters are percent-encoded and its escapes upper-cased.
  { test: 'TestMaybeEscapePattern (á → %C3%A1)', body: 'User-agent: FooBot\nDisallow: /á\n', rows: [['FooBot', 'http://foo.bar/%C3%A1', false]] },
  { test: 'TestMaybeEscapePattern (%aa → %AA)', body: 'User-agent: FooBot\nDisallow: /%aa\n', rows: [['FooBot', 'http://foo.bar/%AA', false]] },
];

// Where RFC 9309 and Google's test harness part: Google expects the caller to percent-encode the URL (and refuses
// these two); §2.2.2 compares encoded forms, and isAllowed encodes every URL before matching.
const RFC_NOT_GOOGLE_HARNESS: { test: string; body: string; rows: Row[] }[] = [
  { test: 'ID_Encoding (3-byte character, URL not encoded)', body: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n', rows: [['FooBot', 'http://foo.bar/foo/bar/ツ', true]] },
  {
    test: 'ID_Encoding (percent-encoded 3-byte character, URL not encoded)',
    body: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n',
    rows: [['FooBot', 'http://foo.bar/foo/bar/ツ', true]],
  },
];

describe('RFC 9309 cases from Google’s robots.txt parser tests', () => {
  it(`answers all ${GOOGLE_CASES.reduce((n, c) => n + c.rows.length, 0)} rows as Google’s parser does`, () => {
    const wrong: string[] = [];
    for (const c of GOOGLE_CASES) {
      const r = robotsFrom(c.body);
      for (const [agent, url, allowed] of c.rows) {
        if (r.isAllowed(agent, url) !== allowed) wrong.push(`${c.test}: ${agent} ${url} should be ${allowed ? 'allowed' : 'disallowed'}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('percent-encodes the URL before matching, where Google leaves that to its caller', () => {
    for (const c of RFC_NOT_GOOGLE_HARNESS) {
      const r = robotsFrom(c.body);
      for (const [agent, url, allowed] of c.rows) assert.equal(r.isAllowed(agent, url), allowed, `${c.test}: ${url}`);
    }
  });

  it('skips a leading byte order mark and reads a Sitemap line anywhere (ID_UTF8ByteOrderMarkIsSkipped, ID_NonStandardLineExample_Sitemap)', () => {
    const bom = robotsFrom('\uFEFFUser-Agent: foo\nAllow: /AnyValue\n');
    assert.deepEqual(bom.groups, ['foo']);
    assert.equal(bom.parseErrors, 0);
    const loc = 'http://foo.bar/sitemap.xml';
    const group = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n';
    assert.deepEqual(robotsFrom(`${group}Sitemap: ${loc}\n`).sitemaps, [loc]);
    assert.deepEqual(robotsFrom(`Sitemap: ${loc}\n${group}`).sitemaps, [loc]);
  });
});
