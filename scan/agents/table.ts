// The agents that matter for shopping, in one table: what each is for, the robots.txt token it obeys, the
// user-agent string its operator documents (or, where the operator names only the token, the one seen in server
// logs, said in `note`), and where that is written. The agents matrix (scan/fetching/agents-matrix.ts) asks the
// store as each of them, in this order (the crawlers most likely to be treated apart first, since the rest may be
// sampled); access_no_bot_wall scores the user fetchers.

export type AgentKind = 'user_fetcher' | 'search_indexer' | 'training_crawler' | 'browser';

export interface KnownAgent {
  name: string; // as its operator writes it
  operator: string;
  kind: AgentKind;
  purpose: string; // what it is for, in a line
  token: string | null; // its robots.txt product token; null for browser agents, which read no robots.txt
  userAgent: string | null; // null: a robots.txt token only (it sends no requests of its own), or a browser's
  source: string; // where the operator documents it
  note?: string;
}

export const KIND_LABELS: Readonly<Record<AgentKind, string>> = {
  user_fetcher: 'Fetches pages for a shopper',
  search_indexer: 'Search index behind AI answers',
  training_crawler: 'Collects training data',
  browser: 'Shops in a real browser',
};

const OPENAI = 'https://developers.openai.com/api/docs/bots';
const ANTHROPIC = 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler';
const ANTHROPIC_NOTE = 'Anthropic documents the robots.txt token; the user-agent is the one its requests carry.';
const PERPLEXITY = 'https://docs.perplexity.ai/guides/bots';
const GOOGLE = 'https://developers.google.com/search/docs/crawling-indexing/overview-google-crawlers';

export const AGENTS: readonly KnownAgent[] = [
  {
    name: 'ChatGPT-User',
    operator: 'OpenAI',
    kind: 'user_fetcher',
    purpose: 'Opens a page when a ChatGPT user asks about it or shops with it',
    token: 'ChatGPT-User',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    source: OPENAI,
  },
  {
    name: 'Claude-User',
    operator: 'Anthropic',
    kind: 'user_fetcher',
    purpose: 'Opens a page when a Claude user asks about it',
    token: 'Claude-User',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
    source: ANTHROPIC,
    note: ANTHROPIC_NOTE,
  },
  {
    name: 'Perplexity-User',
    operator: 'Perplexity',
    kind: 'user_fetcher',
    purpose: 'Opens a page when a Perplexity user asks about it',
    token: 'Perplexity-User',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
    source: PERPLEXITY,
  },
  {
    name: 'MistralAI-User',
    operator: 'Mistral AI',
    kind: 'user_fetcher',
    purpose: 'Opens a page when a Le Chat user asks about it',
    token: 'MistralAI-User',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)',
    source: 'https://docs.mistral.ai/robots',
  },
  {
    name: 'OAI-SearchBot',
    operator: 'OpenAI',
    kind: 'search_indexer',
    purpose: 'Indexes pages for ChatGPT search and shopping answers',
    token: 'OAI-SearchBot',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot',
    source: OPENAI,
  },
  {
    name: 'Googlebot',
    operator: 'Google',
    kind: 'search_indexer',
    purpose: 'Indexes pages for Google Search, AI Overviews and AI Mode',
    token: 'Googlebot',
    userAgent: 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    source: GOOGLE,
  },
  {
    name: 'Claude-SearchBot',
    operator: 'Anthropic',
    kind: 'search_indexer',
    purpose: "Indexes pages for Claude's web search",
    token: 'Claude-SearchBot',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)',
    source: ANTHROPIC,
    note: ANTHROPIC_NOTE,
  },
  {
    name: 'PerplexityBot',
    operator: 'Perplexity',
    kind: 'search_indexer',
    purpose: "Indexes pages for Perplexity's answers",
    token: 'PerplexityBot',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
    source: PERPLEXITY,
  },
  {
    name: 'bingbot',
    operator: 'Microsoft',
    kind: 'search_indexer',
    purpose: 'Indexes pages for Bing and Copilot answers',
    token: 'bingbot',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/131.0.0.0 Safari/537.36',
    source: 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0',
  },
  {
    name: 'Applebot',
    operator: 'Apple',
    kind: 'search_indexer',
    purpose: 'Indexes pages for Siri, Spotlight and Apple Intelligence answers',
    token: 'Applebot',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    source: 'https://support.apple.com/en-us/119829',
  },
  {
    name: 'DuckAssistBot',
    operator: 'DuckDuckGo',
    kind: 'search_indexer',
    purpose: "Fetches pages for DuckDuckGo's AI-assisted answers",
    token: 'DuckAssistBot',
    userAgent: 'DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)',
    source: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot',
  },
  {
    name: 'GPTBot',
    operator: 'OpenAI',
    kind: 'training_crawler',
    purpose: "Collects pages to train OpenAI's models",
    token: 'GPTBot',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot',
    source: OPENAI,
  },
  {
    name: 'ClaudeBot',
    operator: 'Anthropic',
    kind: 'training_crawler',
    purpose: "Collects pages to train Anthropic's models",
    token: 'ClaudeBot',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    source: ANTHROPIC,
    note: ANTHROPIC_NOTE,
  },
  {
    name: 'CCBot',
    operator: 'Common Crawl',
    kind: 'training_crawler',
    purpose: 'Builds the open Common Crawl archive many models train on',
    token: 'CCBot',
    userAgent: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
    source: 'https://commoncrawl.org/ccbot',
  },
  {
    name: 'Google-Extended',
    operator: 'Google',
    kind: 'training_crawler',
    purpose: "Says whether Googlebot's pages may train Gemini; it sends no requests of its own",
    token: 'Google-Extended',
    userAgent: null,
    source: GOOGLE,
  },
  {
    name: 'Meta-ExternalAgent',
    operator: 'Meta',
    kind: 'training_crawler',
    purpose: "Collects pages to train Meta's models",
    token: 'meta-externalagent',
    userAgent: 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    source: 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers',
  },
  {
    name: 'Bytespider',
    operator: 'ByteDance',
    kind: 'training_crawler',
    purpose: "Collects pages for ByteDance's models",
    token: 'Bytespider',
    userAgent: 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
    source: 'https://darkvisitors.com/agents/bytespider',
    note: 'ByteDance publishes no page for it; the user-agent is the one its requests carry.',
  },
  {
    name: 'Amazonbot',
    operator: 'Amazon',
    kind: 'training_crawler',
    purpose: 'Collects pages for Alexa answers and Amazon models',
    token: 'Amazonbot',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36',
    source: 'https://developer.amazon.com/amazonbot',
  },
  {
    name: 'Browser agents',
    operator: 'ChatGPT agent, Comet, Gemini in Chrome',
    kind: 'browser',
    purpose: 'Drive Chromium, run scripts and click through the store for a shopper',
    token: null,
    userAgent: null,
    source: 'https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting',
    note: "Their row is the browser view's: the pages rendered in headless Chromium.",
  },
];

/** The user-agent a matrix request sends: the agent's own, then our token and /bot, so the store owner can tell it is us. */
export const matrixUserAgent = (agent: KnownAgent, baseUrl: string): string =>
  `${agent.userAgent ?? ''} store-readiness-agents/1.0 (+${baseUrl.replace(/\/+$/, '')}/bot)`.trim();
