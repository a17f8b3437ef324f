// "Can an agent buy here?" wherever a report is read: the report page (the steps as a strip, the picture, the blocker
// in a sentence with its fix, effort and platform steps), its Markdown, the MCP report resource, the agent brief and
// the improve_store_readiness prompt. Store text in the journey is escaped; a stored journey that fails its schema
// is said to be unreadable rather than breaking the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { fakeReport, saveReport } from '../helpers/scans.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { notRunJourney } from '../../scan/journey/report.js';
import { renderBrief } from '../../tools/render-brief.js';
import type { Journey } from '../../schemas/journey.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const HOSTILE = '<script>alert(1)</script>';
const SHOT = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2w==';

function stoppedAtSignIn(): Journey {
  const steps: Journey['steps'] = notRunJourney('').steps.map((s, i) => ({ ...s, status: i < 7 && s.step !== 'dismiss_overlay' && s.step !== 'choose_variant' ? 'passed' : 'skipped', detail: `did ${s.step}`, ms: 100 }));
  steps[7] = { step: 'checkout', status: 'failed', url: 'https://shop.test/account/login', detail: `The checkout asks to sign in ${HOSTILE}`, ms: 40 };
  return {
    ...notRunJourney(''),
    outcome: 'stopped',
    blocker: 'login_required',
    note: 'Walked in headless Chromium the way a browser agent does.',
    product: { url: 'https://shop.test/products/jacket', name: `Jacket ${HOSTILE}` },
    steps,
    protocol: { via: 'mcp', endpoint: 'https://shop.test/api/mcp', tool: 'search_catalog', query: 'Jacket', found: true, price_matches: false, page_price: { amount: 189, currency: 'EUR' }, protocol_price: { amount: 149, currency: 'EUR' }, availability_matches: true, calls: 3, detail: 'The catalog names the product at 149 EUR; its page says 189 EUR.' },
    accessibility: [{ step: 'open_product', url: 'https://shop.test/products/jacket', violations: [{ rule: 'button-name', impact: 'critical', help: 'Buttons must have discernible text', nodes: 1, targets: [`#add${HOSTILE}`] }] }],
    screenshot: { step: 'checkout', data_url: SHOT },
    requests_refused: 2,
    walked_at: '2026-12-01T10:00:00.000Z',
  };
}

async function withReport(t: Parameters<typeof startApp>[0], journey: unknown) {
  const app = await startApp(t);
  const report = { ...fakeReport(41, { host: 'shop.test', score: 72 }), journey } as ScanResult;
  await saveReport(app.db, report);
  return { app, report };
}

test('the report page shows the strip, the picture, the blocker with its fix and platform steps, the catalog and the rules', async (t) => {
  const { app } = await withReport(t, stoppedAtSignIn());
  const page = await fetch(`${app.url}/r/41`).then((r) => r.text());
  const section = page.slice(page.indexOf('id="journey-h"'), page.indexOf('</section>', page.indexOf('id="journey-h"')));
  assert.match(section, /Can an agent buy here\?/);
  assert.equal((section.match(/<li class="status status-/g) ?? []).length, 8, 'one cell per step');
  assert.match(section, /<li class="status status-fail"><span aria-hidden="true">✕<\/span> Checkout<span class="visually-hidden">: failed<\/span><\/li>/);
  assert.match(section, /Not yet: the journey stopped at &quot;Checkout&quot;\. The checkout asks shoppers to sign in and offers no guest checkout/);
  assert.match(section, /Let shoppers check out as guests.*<span class="tag effort">Effort: a few minutes<\/span>/);
  assert.match(section, /<summary>Shopify<\/summary><p>In your customer account settings, make accounts optional/);
  assert.match(section, new RegExp(`<img src="${SHOT.replace(/[+/]/g, '\\$&')}" alt="The page where the journey ended: Checkout"`));
  assert.match(section, /another price than the page/);
  assert.match(section, /<code>button-name<\/code> \(critical\): Buttons must have discernible text — 1 element\(s\)/);
  assert.match(section, /2 request\(s\) the pages sent were refused/);
  assert.doesNotMatch(page, /<script>alert/, 'store text is escaped');
  assert.match(section, /sign in &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

test('the Markdown report and the MCP report resource carry the journey', async (t) => {
  const { app } = await withReport(t, stoppedAtSignIn());
  const markdown = await fetch(`${app.url}/r/41`, { headers: { accept: 'text/markdown' } }).then((r) => r.text());
  assert.match(markdown, /## Can an agent buy here\?[\s\S]*Not yet: the journey stopped at "Checkout"[\s\S]*Fix \(a few minutes\): Let shoppers check out as guests/);
  assert.match(markdown, /\| Checkout \| failed \| The checkout asks to sign in/);
  assert.match(markdown, /Catalog \(mcp, `search_catalog`\): found yes, price matches no/);
  const client = await connectMcp(t, app);
  const resource = await client.readResource({ uri: 'readiness://reports/shop.test' });
  assert.match(String((resource.contents[0] as { text: string }).text), /## Can an agent buy here\?[\s\S]*login|sign in/);
});

test('the agent brief and the improve_store_readiness prompt name where the journey stopped and the fix', async (t) => {
  const { app, report } = await withReport(t, stoppedAtSignIn());
  const brief = renderBrief(report, { baseUrl: app.url });
  assert.match(brief, /## Can an agent buy here\? \(not scored\)\n\nA browser agent walked `Jacket <script>alert\(1\)<\/script>` towards the checkout and stopped at "Checkout"\./);
  assert.match(brief, /Fix \(a few minutes\): Let shoppers check out as guests[\s\S]*- shopify: In your customer account settings/);
  const client = await connectMcp(t, app);
  const prompt = await client.getPrompt({ name: 'improve_store_readiness', arguments: { host: 'shop.test' } });
  const text = (prompt.messages[0].content as { text: string }).text;
  assert.match(text, /Buying \(not scored, but where agent purchases are lost\): a browser agent walking a product to the checkout stopped at "Checkout"/);
  assert.match(text, /Fix: Let shoppers check out as guests/);
});

test('a journey that reached the checkout, one that did not run, one from before the journey, one unreadable', async (t) => {
  const reached: Journey = { ...stoppedAtSignIn(), outcome: 'reached_checkout', blocker: null, checkout: { url: 'https://pay.example/checkouts/1', host: 'pay.example', same_site: false, guest: true, signals: ['email field'] } };
  const cases: [unknown, RegExp][] = [
    [reached, /Yes: an agent reached the checkout \(pay\.example, another site than the store&#39;s; no account needed\)\./],
    [notRunJourney('Not run: this instance has no browser (Chromium).'), /Not run: this instance has no browser/],
    [undefined, /This scan was made before the buying journey existed/],
    [{ outcome: 'reached_checkout', steps: 'nope' }, /The buying journey of this scan could not be read/],
  ];
  for (const [i, [journey, expected]] of cases.entries()) {
    const app = await startApp(t);
    await saveReport(app.db, { ...fakeReport(50 + i, { host: `s${i}.test`, score: 60 }), journey } as ScanResult);
    const res = await fetch(`${app.url}/r/${50 + i}`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), expected);
  }
});
