// The fixes of the agents matrix's findings, in a merchant's developer's words, naming the settings of the CDNs,
// firewalls and platforms stores use. The report shows them beside each finding; access_no_bot_wall gives the one
// that matches what it found as its `how`.

export const BLOCKED_FIX =
  "Let AI shopping agents past your firewall on catalogue pages. In Cloudflare: AI Crawl Control (Security → Bots), set ChatGPT-User, Claude-User, Perplexity-User and MistralAI-User to Allow, turn off \"Block AI bots\" for your product pages, allow verified bots and signed agents (Web Bot Auth) in Bot Management or Super Bot Fight Mode, and check WAF custom rules that match their user-agents. On Shopify, check bot-blocking apps and any proxy or CDN you put in front of the store. On WooCommerce, check your security plugin's bot and user-agent rules (Wordfence, Sucuri, All-In-One Security, the Cloudflare plugin) and your host's firewall. In Akamai, HUMAN, DataDome or Imperva, allow their AI-agent categories. Keep challenges on checkout and login, not on product pages.";

export const SIGNED_ONLY_FIX =
  "Your protection lets only signed requests in on these pages: agents that sign (ChatGPT agent) get through, but the user fetchers that do not (Claude-User, Perplexity-User, MistralAI-User, often ChatGPT-User) are refused. Keep signed agents allowed, and also allow the user fetchers by name: in Cloudflare's AI Crawl Control set them to Allow; elsewhere allow their user-agents or their operators' published IP ranges on catalogue pages.";

export const CLOAKING_FIX =
  'Serve agents the page you serve shoppers. Something shows bots another price or stock than browsers get: a pre-rendering service, a cache or edge rule keyed on bot user-agents, or a stale bot-only copy. Render product pages from one source for every visitor, purge bot caches when prices change, and remove user-agent-based variants; agents quote the price they read, and search engines treat content shown only to bots as cloaking.';

export const DEGRADED_FIX =
  'Give agents the full page. An agent user-agent got a much smaller page with another title (a lite or bot version, an interstitial): serve the same product page to every visitor, or at least the same name, price, stock and buy link.';

export const RATE_LIMIT_FIX =
  "Rate-limit by address and request rate, not by AI user-agent. A few requests from one agent should not meet a 429; if yours did only because our scan asked several pages in a burst, nothing needs to change.";
