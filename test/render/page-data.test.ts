// The boundary between a rendered page and its report (render/page-data.ts): whatever the page scripts hand back —
// the wrong types, unknown enums, thousands of entries, megabytes of text, negative or enormous counts — comes out
// typed and within the caps of schemas/browser-view.ts, or not at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_VIEW_CAPS as CAPS, WebMcpTool, BuyControl } from '../../schemas/browser-view.js';
import { MAX_HTML, readBuyControl, readCover, readProbe, readMarkedBuyControls, readOverlay } from '../../render/page-data.js';

const probe = (over: Record<string, unknown> = {}) => ({ html: '<html></html>', domBytes: 13, tools: [], popups: 0, ...over });

test('500 WebMCP entries of 10 KB: at most the cap are kept, each name and description cut', () => {
  const big = 'x'.repeat(10_000);
  const tools = Array.from({ length: 500 }, (_, i) => ({ name: `${i}${big}`, description: big, via: 'registerTool' }));
  const read = readProbe(probe({ tools }))!;
  assert.equal(read.tools.length, CAPS.webmcpTools);
  for (const tool of read.tools) {
    assert.equal(tool.name.length, CAPS.webmcpName);
    assert.equal(tool.description.length, CAPS.webmcpDescription);
    assert.ok(WebMcpTool.safeParse(tool).success);
  }
  assert.ok(JSON.stringify(read.tools).length < 25_000, 'the list is a few kilobytes, not megabytes');
});

test('WebMCP entries of the wrong types or with an unknown via are refused; the valid ones are kept', () => {
  const tools = [
    { name: { x: 1 }, description: 'object name', via: 'registerTool' },
    { name: 'evil', description: 'unknown via', via: 'evil' },
    { name: 'no description', via: 'form' },
    'a string',
    null,
    [1, 2],
    { name: 'search', description: 'Finds products', via: 'provideContext', extra: 'dropped' },
    { name: 42, description: 7, via: 'form' },
  ];
  assert.deepEqual(readProbe(probe({ tools }))!.tools, [{ name: 'search', description: 'Finds products', via: 'provideContext' }]);
  assert.deepEqual(readProbe(probe({ tools: { length: 3 } }))!.tools, [], 'not an array: no tools');
  assert.deepEqual(readProbe(probe({ tools: 'x'.repeat(1000) }))!.tools, []);
});

test('only the first few hundred entries are looked at: a valid one after 100,000 invalid ones is not read', () => {
  const tools: unknown[] = Array.from({ length: 100_000 }, () => ({ via: 'evil' }));
  tools.push({ name: 'late', description: '', via: 'form' });
  assert.deepEqual(readProbe(probe({ tools }))!.tools, []);
});

test('counts are whole numbers within their caps; the DOM is cut; a probe that is no object is no probe', () => {
  for (const [popups, expected] of [[-5, 0], [1.5, 0], [Number.NaN, 0], ['12', 0], [1e12, CAPS.count], [7, 7]] as const) {
    assert.equal(readProbe(probe({ popups }))!.popups, expected, String(popups));
  }
  // The marked buy controls: known reasons only, at most the cap, anything else is none; the overlay is cut.
  assert.deepEqual(readMarkedBuyControls({ reasons: ['icon', 'words'] }), ['icon', 'words']);
  assert.deepEqual(readMarkedBuyControls({ reasons: Array(CAPS.buyControls + 1).fill('words') }), []);
  assert.deepEqual(readMarkedBuyControls({ reasons: ['evil'] }), []);
  assert.deepEqual(readMarkedBuyControls(42), []);
  assert.equal(readOverlay('x'.repeat(10_000))?.length, CAPS.coveredBy + 40);
  assert.equal(readOverlay({ toString: 1 }), null);
  assert.equal(readProbe(probe({ domBytes: -1 }))!.domBytes, 0);
  assert.equal(readProbe(probe({ domBytes: 1e300 }))!.domBytes, 0);
  assert.equal(readProbe(probe({ html: 'x'.repeat(MAX_HTML + 10) }))!.html.length, MAX_HTML);
  assert.equal(readProbe(probe({ html: { toString: 1 } }))!.html, '');
  for (const raw of [null, 'html', 42, [probe()]]) assert.equal(readProbe(raw), null, JSON.stringify(raw));
});

test('buy controls: role and accessible name from the snapshot, cut; what covers them cut; wrong types read as nothing', () => {
  const longName = 'Add to cart '.repeat(10_000);
  const control = readBuyControl(`- button "${longName}"\n  - img "x"`, true, `<div#wall> "${'cookie '.repeat(1000)}"`);
  assert.equal(control.role, 'button');
  assert.equal(control.name.length, CAPS.accessibleName);
  assert.ok(control.name.startsWith('Add to cart Add to cart'));
  assert.equal(control.coveredBy?.length, CAPS.coveredBy);
  assert.ok(BuyControl.safeParse({ role: control.role, name: control.name, enabled: control.enabled, covered_by: control.coveredBy }).success);
  assert.deepEqual(readBuyControl('- button "Say \\"hi\\""', 'yes', 17), { role: 'button', name: 'Say "hi"', enabled: false, coveredBy: null });
  assert.deepEqual(readBuyControl({ role: 'button' }, true, null), { role: null, name: '', enabled: true, coveredBy: null });
  assert.equal(readBuyControl(`- ${'a'.repeat(100)} "x"`, true, null).role, null, 'a role longer than any ARIA role');
  assert.equal(readCover(['<div>']), null);
});
