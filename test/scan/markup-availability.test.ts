// Stock values stores put in markup instead of a schema.org term: each is read as a schema.org state, or named as
// unknown; the availability check still says the markup value is no schema.org term.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availabilityState } from '../../scan/products/availability.js';
import { parsePage } from '../../scan/documents/html.js';
import { extractProduct } from '../../scan/products/product.js';
import check from '../../scan/checks/product_data/product_availability.js';
import { makeArtifacts, makePdp } from '../helpers/artifacts.js';
import { assertLinear } from '../helpers/timing.js';

test('availabilityState maps a store\'s own stock words to schema.org states, and says null for unknown ones', () => {
  const cases: [string, string | null][] = [
    ['NOT SOLD', 'OutOfStock'],
    ['not_sold', 'OutOfStock'],
    ['LowStock', 'LimitedAvailability'],
    ['coming_soon', 'PreOrder'],
    ['Ausverkauft', 'OutOfStock'],
    ['Temporarily out of stock', 'OutOfStock'],
    ['http://schema.org/InStock', 'InStock'],
    ['in_stock', 'InStock'],
    ['ask the shop', null],
    ['', null],
  ];
  for (const [raw, state] of cases) assert.equal(availabilityState(raw), state, raw);
});

function productWith(availability: string) {
  const ld = { '@context': 'https://schema.org', '@type': 'Product', name: 'Sample card', offers: { '@type': 'Offer', price: '4.00', priceCurrency: 'EUR', availability } };
  const html = `<!doctype html><html lang="en"><head><title>Sample card</title><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><h1>Sample card</h1></body></html>`;
  return extractProduct(parsePage(html, 'https://shop.example/products/sample-card'));
}

test('a markup value such as "NOT SOLD" is read as its schema.org state, and the check names the value it found', () => {
  const product = productWith('NOT SOLD');
  assert.deepEqual(product?.availability, { value: 'OutOfStock', source: 'json-ld' });
  assert.deepEqual(product?.availabilityRaw, { value: 'NOT SOLD', source: 'json-ld' });
  const out = check.run(makeArtifacts({ pdps: [makePdp({}, product)] }));
  assert.equal(out.status, 'partial');
  assert.match(out.evidence, /"NOT SOLD" \(json-ld, read as OutOfStock\): not a schema\.org ItemAvailability value/);

  const unknown = productWith('ask the shop');
  assert.equal(unknown?.availability?.value, 'ask the shop');
  assert.match(check.run(makeArtifacts({ pdps: [makePdp({}, unknown)] })).evidence, /an unknown value/);

  // A schema.org term keeps passing as before.
  assert.equal(productWith('https://schema.org/InStock')?.availabilityRaw, undefined);
});

test('linear time: availabilityState on long runs of words and separators', () => {
  assertLinear('availabilityState', 100, (n) => 'aB_'.repeat(n / 3), (t) => availabilityState(t));
});
