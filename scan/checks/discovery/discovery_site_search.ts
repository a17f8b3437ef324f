// Can an agent search the catalogue by URL? Looks for WebSite JSON-LD with a SearchAction whose target template
// carries the query placeholder; a plain GET search form is noted in the evidence but earns nothing.
import { defineCheck } from '../check.js';
import type { Entity } from '../../artifacts.js';
import { snippet } from '../evidence.js';
import { entitiesOf, propEntities, propText, propValues } from '../../documents/structured-data/index.js';

function targets(action: Entity): string[] {
  const out: string[] = [];
  for (const v of propValues(action, 'target')) {
    if (typeof v === 'string') out.push(v);
    else {
      const t = propText(v, 'urlTemplate');
      if (t) out.push(t);
    }
  }
  return out;
}

/** The placeholder named by query-input ("required name=q"), defaulting to Google's search_term_string. */
function placeholder(action: Entity): string {
  const input = propText(action, 'query-input') ?? propText(action, 'queryInput') ?? '';
  const at = input.indexOf('name=');
  const name = at >= 0 ? input.slice(at + 5).trim().split(/\s/)[0] : '';
  return name !== '' ? name : 'search_term_string';
}

export default defineCheck({
  id: 'discovery_site_search',
  label: 'Site search agents can call',
  title: 'Site search is declared for agents',
  failureTitle: 'Declare your site search',
  why: 'A declared search URL template lets an agent query your catalogue directly instead of guessing product URLs.',
  how: 'Add `WebSite` JSON-LD on the homepage with a `potentialAction` of type `SearchAction` whose `target` is `https://your-store/search?q={search_term_string}` and `query-input` `required name=search_term_string`, so an agent can search your catalogue by URL.',
  fix: {
    plain: 'Tell agents how to search your store, so they can look up a product directly instead of guessing addresses.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Add the block below to the home page in theme.liquid (Online Store → Themes → Edit code), with /search?q= as the search address; some themes and SEO apps include it already.',
      woocommerce: 'Yoast and Rank Math add it to the home page for you; without them, add the block below to the home page template, with /?s= as the search address.',
      bigcommerce: 'Add the block below to the home page template of your theme, with your store’s search page address.',
      custom: 'Add the block below to the home page, with your own search address.',
    },
    snippet: '<script type="application/ld+json">\n{"@context": "https://schema.org", "@type": "WebSite", "url": "https://your-store.example/",\n "potentialAction": {"@type": "SearchAction",\n  "target": "https://your-store.example/search?q={search_term_string}",\n  "query-input": "required name=search_term_string"}}\n</script>',
  },
  run(a) {
    const page = a.homePage;
    if (!page) return { status: 'fail', evidence: 'Homepage could not be read.' };
    const sites = entitiesOf(page.entities, ['WebSite']);
    const actions = [...sites.flatMap((s) => propEntities(s, 'potentialAction')), ...entitiesOf(page.entities, ['SearchAction'])];
    for (const action of actions) {
      const name = placeholder(action);
      const t = targets(action).find((x) => x.includes(`{${name}}`));
      if (t) return { status: 'pass', evidence: `WebSite SearchAction target ${snippet(t)}.` };
    }
    const form = page.forms.find((f) => f.method === 'get' && f.inputs.some((i) => i.type === 'search' || ['q', 's', 'query', 'search', 'keyword', 'keywords', 'term'].includes(i.name.toLowerCase())));
    const formNote = form ? `; a GET search form exists (${snippet(form.action ?? '(same page)', 100)}) but is not declared` : '';
    if (actions.length > 0) {
      return { status: 'fail', evidence: `A SearchAction exists but its target has no {search_term_string} placeholder (${snippet(targets(actions[0])[0] ?? 'no target', 100)})${formNote}.` };
    }
    return { status: 'fail', evidence: `No WebSite SearchAction on the homepage${sites.length > 0 ? ' (WebSite present without potentialAction)' : ''}${formNote}.` };
  },
});
