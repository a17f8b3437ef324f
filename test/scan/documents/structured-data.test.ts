// Structured data on small hand-written pages: the lenient JSON-LD parser and its caps, JSON-LD → entities
// (@graph, references, type repair), microdata (value rules, itemref) and RDFa Lite, and the tree-shaped output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'parse5';
import type { Entity } from '../../../scan/artifacts.js';
import { parsePage } from '../../../scan/documents/html.js';
import { assertLinear } from '../../helpers/timing.js';
import {
  MAX_JSON_DEPTH,
  decodeEntities,
  domEntities,
  flattenEntities,
  jsonLdEntities,
  normaliseType,
  parseJsonLenient,
  propStrings,
  propValues,
} from '../../../scan/documents/structured-data/index.js';

const ok = (text: string): { value: unknown; repairs: string[]; truncated: boolean } => {
  const r = parseJsonLenient(text);
  assert.ok(r.ok, `expected ${JSON.stringify(text.slice(0, 60))} to parse: ${r.ok ? '' : r.error}`);
  return r;
};

const page = (body: string, head = '', url = 'https://shop.test/p/1'): ReturnType<typeof parsePage> =>
  parsePage(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, url);

const ld = (json: string): string => `<script type="application/ld+json">${json}</script>`;

function depthOf(e: Entity): number {
  let max = 1;
  const stack: { e: Entity; d: number }[] = [{ e, d: 1 }];
  while (stack.length > 0) {
    const { e: cur, d } = stack.pop() as { e: Entity; d: number };
    max = Math.max(max, d);
    for (const vs of Object.values(cur.props)) for (const v of vs) if (typeof v !== 'string') stack.push({ e: v, d: d + 1 });
  }
  return max;
}

// ---------------------------------------------------------------------------------------------------------------
// Lenient JSON

test('valid JSON parses exactly as JSON.parse does (property test)', () => {
  fc.assert(
    fc.property(fc.json({ depthSize: 'small' }), (text) => {
      const r = parseJsonLenient(text);
      assert.ok(r.ok);
      assert.deepEqual(r.value, JSON.parse(text));
      assert.deepEqual(r.repairs, []);
    }),
    { numRuns: 300 },
  );
  assert.deepEqual(ok('{"a":"\\u00e9\\ud83d\\ude00\\n\\"","b":-1.5e3,"c":[true,false,null],"d":{}}').value, {
    a: 'é😀\n"',
    b: -1500,
    c: [true, false, null],
    d: {},
  });
});

test('lenient JSON repairs what stores publish, and says what it repaired', () => {
  const cases: [string, unknown, string][] = [
    ['<!-- {"a":1} -->', { a: 1 }, 'HTML comment or CDATA wrapper'],
    ['//<![CDATA[\n{"a":1}\n//]]>', { a: 1 }, 'comments'],
    ['<![CDATA[{"a":1}]]>', { a: 1 }, 'HTML comment or CDATA wrapper'],
    ['{"a":1, // note\n"b":2 /* x */}', { a: 1, b: 2 }, 'comments'],
    ['{"a":[1,2,],}', { a: [1, 2] }, 'trailing comma'],
    ['{"a":"line 1\nline 2"}', { a: 'line 1\nline 2' }, 'control characters in string'],
    ['{"a":1}{"b":2}', [{ a: 1 }, { b: 2 }], 'concatenated values'],
    ['{"a":1},{"b":2}', [{ a: 1 }, { b: 2 }], 'concatenated values'],
    ["{'a':'it\\'s'}", { a: "it's" }, 'single quotes'],
    ['{a:1}', { a: 1 }, 'unquoted key'],
    ['{"a":1 "b":2}', { a: 1, b: 2 }, 'missing comma'],
    ['[1 2]', [1, 2], 'missing comma'],
    ['{"a":NaN,"b":undefined}', { a: null, b: null }, 'non-JSON literal'],
    ['{"a":"x"};', { a: 'x' }, 'semicolon'],
  ];
  for (const [text, value, repair] of cases) {
    const r = ok(text);
    assert.deepEqual(r.value, value, text);
    assert.ok(r.repairs.includes(repair), `${text}: ${r.repairs.join(', ')}`);
  }
});

test('lenient JSON still refuses what is not JSON at all', () => {
  for (const text of ['', '   ', '{"a":1', '{"a":"x', '{"a":}', '[1,2}', 'hello', '{"a" 1}', '/* open', '}']) {
    const r = parseJsonLenient(text);
    assert.equal(r.ok, false, text);
  }
});

test('a "__proto__" key is an own property, as with JSON.parse, and never the prototype', () => {
  const text = '{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":2}},"constructor":{"prototype":{"polluted":3}}}';
  const r = ok(text);
  const v = r.value as Record<string, unknown>;
  assert.deepEqual(v, JSON.parse(text));
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.equal((v as { polluted?: number }).polluted, undefined);
  assert.equal(({} as { polluted?: number }).polluted, undefined);
});

test('property names from the page never touch prototypes ("__proto__", "constructor", "toString")', () => {
  const p = parsePage(
    `<head><meta name="constructor" content="c"><meta name="__proto__" content="p"><meta property="toString" content="t"></head>
     <body><div itemscope itemtype="http://schema.org/Product"><span itemprop="constructor toString __proto__">x</span></div>
     <div vocab="http://schema.org/" typeof="Product"><span property="constructor">r</span></div>
     ${ld('{"@type":"Product","name":"&constructor; &amp;","constructor":"j","__proto__":{"polluted":1},"toString":"s"}')}</body>`,
    'https://shop.constructor/p',
  );
  assert.deepEqual(p.meta.constructor, ['c']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(p.meta, '__proto__')?.value, ['p']);
  assert.equal(Object.getPrototypeOf(p.meta), Object.prototype);
  assert.deepEqual(p.meta.tostring, ['t']);
  const [json, micro, rdfa] = [p.entities.find((e) => e.source === 'json-ld'), p.entities.find((e) => e.source === 'microdata'), p.entities.find((e) => e.source === 'rdfa')];
  assert.deepEqual(micro?.props.constructor, ['x']);
  assert.deepEqual(micro?.props.toString, ['x']);
  assert.deepEqual(rdfa?.props.constructor, ['r']);
  assert.deepEqual(json?.props.constructor, ['j']);
  assert.deepEqual(json?.props.name, ['&constructor; &']);
  assert.equal(({} as { polluted?: number }).polluted, undefined);
  assert.doesNotThrow(() => JSON.stringify(p));
  assert.equal(propValues(json as Entity, 'hasOwnProperty').length, 0);
});

test('nesting beyond 64 is dropped (R5): [[[…]]] 10,000 deep and @graph 5,000 deep', () => {
  const arrays = ok('['.repeat(10_000) + '1' + ']'.repeat(10_000));
  assert.equal(arrays.truncated, true);
  let depth = 0;
  for (let v: unknown = arrays.value; Array.isArray(v); v = v[0]) depth++;
  assert.equal(depth, MAX_JSON_DEPTH);
  const graph = ok('{"@graph":'.repeat(5_000) + '{"@type":"Product","name":"deep"}' + '}'.repeat(5_000));
  assert.equal(graph.truncated, true);
  const p = page(ld('{"@graph":'.repeat(5_000) + '{"@type":"Product"}' + '}'.repeat(5_000)) + ld('['.repeat(10_000) + ']'.repeat(10_000)));
  assert.equal(p.jsonLd.blocks, 2);
  assert.ok(p.jsonLd.errors.some((e) => e.includes('deeper than 64')));
  assert.doesNotThrow(() => JSON.stringify(p));
});

test('a 1 MB string and 100,000 keys parse in linear time', () => {
  assertLinear('1 MB string', 100_000, (n) => `{"a":"${'x'.repeat(n)}"}`, ok);
  assertLinear('100,000 keys', 10_000, (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`, ok);
  assertLinear('100,000 objects', 10_000, (n) => '[' + '{"a":1},'.repeat(n) + ']', ok);
});

// ---------------------------------------------------------------------------------------------------------------
// JSON-LD → entities

test('types: schema.org prefixes stripped, lower-case repaired, other vocabularies kept', () => {
  assert.equal(normaliseType('http://schema.org/Product'), 'Product');
  assert.equal(normaliseType('https://schema.org/Offer/'), 'Offer');
  assert.equal(normaliseType('https://www.schema.org/Brand'), 'Brand');
  assert.equal(normaliseType('schema:ItemList'), 'ItemList');
  assert.equal(normaliseType('http://data-vocabulary.org/Product'), 'Product');
  assert.equal(normaliseType('product'), 'Product');
  assert.equal(normaliseType('aggregaterating'), 'AggregateRating');
  assert.equal(normaliseType('PRODUCTGROUP'), 'ProductGroup');
  assert.equal(normaliseType('sneaker'), 'Sneaker');
  assert.equal(normaliseType('http://purl.org/goodrelations/v1#Offering'), 'http://purl.org/goodrelations/v1#Offering');
  assert.equal(normaliseType('  '), null);
});

test('@graph, top-level arrays and nested objects all become entities; missing @context is fine', () => {
  const p = page(
    ld('{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Shop"},{"@type":"WebSite","name":"S"}]}') +
      ld('[{"@type":"product","name":"Boot","offers":{"@type":"offer","price":"10.00","priceCurrency":"EUR"}}]') +
      ld('{"@type":"brand","name":"B","@graph":[{"@type":"Product","name":"Variant"}]}'),
  );
  assert.deepEqual(
    p.entities.map((e) => e.types.join()),
    ['Organization', 'WebSite', 'Product', 'Offer', 'Brand', 'Product'],
  );
  assert.ok(p.entities.every((e) => e.source === 'json-ld'));
  const boot = p.entities[2];
  assert.equal(propStrings(boot, 'name')[0], 'Boot');
  assert.equal((propValues(boot, 'offers')[0] as Entity).props.price[0], '10.00');
});

test('values: numbers and booleans as strings, @value unwrapped, HTML entities decoded, nulls and empties dropped', () => {
  const [e] = jsonLdEntities([
    {
      '@type': 'Product',
      name: 'Black &amp; Silver &#8211; &quot;XL&quot;',
      sku: 746423,
      isFamilyFriendly: true,
      description: { '@value': 'desc', '@language': 'en' },
      image: [null, '', 'https://a.test/1.jpg'],
      'http://schema.org/color': 'red',
    },
  ]);
  assert.deepEqual(e.props.name, ['Black & Silver – "XL"']);
  assert.deepEqual(e.props.sku, ['746423']);
  assert.deepEqual(e.props.isFamilyFriendly, ['true']);
  assert.deepEqual(e.props.description, ['desc']);
  assert.deepEqual(e.props.image, ['https://a.test/1.jpg']);
  assert.deepEqual(e.props.color, ['red']);
  assert.equal(decodeEntities('&unknown; &#0; &#x1F600;'), '&unknown; &#0; 😀');
});

test('@id references are expanded; cycles stay ids and the result serialises', () => {
  const blocks = [
    {
      '@graph': [
        { '@id': '#p', '@type': 'Product', name: 'P', offers: { '@id': '#o' }, isRelatedTo: { '@id': '#p' } },
        { '@id': '#o', '@type': 'Offer', price: '5', seller: { '@id': '#org' }, itemOffered: { '@id': '#p' } },
        { '@id': '#org', '@type': 'Organization', name: 'Shop' },
        { '@type': 'WebPage', mainEntity: { '@id': '#missing' } },
      ],
    },
  ];
  const tops = jsonLdEntities(blocks);
  const product = tops[0];
  const offer = product.props.offers[0] as Entity;
  assert.deepEqual(offer.types, ['Offer']);
  assert.equal(((offer.props.seller[0] as Entity).props.name as string[])[0], 'Shop');
  assert.deepEqual(product.props.isRelatedTo, ['#p']); // a reference back to itself
  assert.deepEqual(offer.props.itemOffered, ['#p']);
  assert.deepEqual(tops[3].props.mainEntity, ['#missing']);
  const flat = flattenEntities(tops);
  assert.doesNotThrow(() => JSON.stringify(flat));
});

test('the entity budget bounds reference fan-out (a diamond chain does not explode)', () => {
  const graph: Record<string, unknown>[] = [];
  for (let i = 0; i < 40; i++) graph.push({ '@id': `#n${i}`, '@type': 'Thing', a: { '@id': `#n${i + 1}` }, b: { '@id': `#n${i + 1}` } });
  graph.push({ '@id': '#n40', '@type': 'Thing', name: 'end' });
  // 2⁴⁰ paths if every reference were followed: the bounded output proves the budget, and that it returned at all.
  const flat = flattenEntities(jsonLdEntities([{ '@graph': graph }]));
  assert.ok(flat.length <= 5_000 + 41);
  assert.ok(JSON.stringify(flat).length < 50_000_000);
});

// ---------------------------------------------------------------------------------------------------------------
// Microdata

test('microdata values follow the HTML rules (content, src/href resolved, datetime, value, text)', () => {
  const p = page(`
    <div itemscope itemtype="https://schema.org/Product">
      <h2 itemprop="name"> Trail   <b>Boot</b> </h2>
      <meta itemprop="sku" content="SKU-1">
      <img itemprop="image" src="/img/boot.jpg">
      <a itemprop="url" href="boot.html">link text</a>
      <link itemprop="sameAs" href="https://other.test/boot">
      <time itemprop="releaseDate" datetime="2024-01-02">Jan 2</time>
      <data itemprop="gtin13" value="4006381333931">EAN</data>
      <span itemprop="price" content="34.99">£34.99</span>
      <p itemprop="description">Line one<br>Line two</p>
      <span itemprop="color material">Red</span>
    </div>`);
  const [e] = p.entities;
  assert.deepEqual(e.types, ['Product']);
  assert.equal(e.source, 'microdata');
  assert.deepEqual(e.props, {
    name: ['Trail Boot'],
    sku: ['SKU-1'],
    image: ['https://shop.test/img/boot.jpg'],
    url: ['https://shop.test/p/boot.html'],
    sameAs: ['https://other.test/boot'],
    releaseDate: ['2024-01-02'],
    gtin13: ['4006381333931'],
    price: ['34.99'],
    description: ['Line one Line two'],
    color: ['Red'],
    material: ['Red'],
  });
});

test('microdata nesting: an itemprop+itemscope is a nested item, a stray one without parent is still top-level', () => {
  const p = page(`
    <div itemprop="mainEntityOfPage" itemscope itemtype="http://schema.org/Product">
      <span itemprop="name">Cam</span>
      <div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span itemprop="price">9</span>
        <div itemprop="seller" itemscope itemtype="http://schema.org/Organization"><span itemprop="name">Shop</span></div>
      </div>
    </div>
    <span itemprop="orphan">ignored</span>`);
  assert.deepEqual(p.entities.map((e) => e.types[0]), ['Product', 'Offer', 'Organization']);
  const offer = p.entities[0].props.offers[0] as Entity;
  assert.deepEqual(offer.props.price, ['9']);
  assert.equal(offer.props.seller[0], p.entities[2]);
  assert.equal(offer.props.name, undefined); // the seller's name is the seller's
});

test('itemref pulls in referenced properties and items; unknown ids and reference loops are harmless', () => {
  const p = page(`
    <div itemscope itemtype="http://schema.org/Product" itemref="extra rel nope loop"><span itemprop="name">Main</span></div>
    <div id="extra"><span itemprop="brand">ACME</span></div>
    <div id="rel" itemscope itemtype="http://schema.org/Product" itemprop="isRelatedTo"><span itemprop="name">Rel</span></div>
    <div id="loop" itemscope itemtype="http://schema.org/Thing" itemprop="subjectOf" itemref="loop2"><span itemprop="name">L</span></div>
    <div id="loop2" itemscope itemtype="http://schema.org/Thing" itemprop="about" itemref="loop"></div>`);
  const main = p.entities[0];
  assert.deepEqual(main.props.name, ['Main']);
  assert.deepEqual(main.props.brand, ['ACME']);
  assert.deepEqual(((main.props.isRelatedTo[0] as Entity).props.name as string[])[0], 'Rel');
  assert.doesNotThrow(() => JSON.stringify(p.entities));
});

test('microdata nested deeper than 512 elements is not read (R5)', () => {
  const deep = '<div>'.repeat(600) + '<span itemprop="name">deep</span>' + '</div>'.repeat(600);
  const p = page(`<div itemscope itemtype="http://schema.org/Product"><span itemprop="sku">1</span>${deep}</div>`);
  assert.deepEqual(p.entities[0].props, { sku: ['1'] });
  const items = '<div itemscope itemtype="http://schema.org/Thing" itemprop="hasPart">'.repeat(2_000) + '</div>'.repeat(2_000);
  const q = page(`<div itemscope itemtype="http://schema.org/Product">${items}</div>`);
  assert.doesNotThrow(() => JSON.stringify(q.entities));
  assert.ok(Math.max(...q.entities.map(depthOf)) <= MAX_JSON_DEPTH + 1); // + the string-only copy at the cut
});

// ---------------------------------------------------------------------------------------------------------------
// RDFa Lite

test('RDFa Lite: vocab/typeof/property, nested typeof, prefixes; OpenGraph meta tags are not entities', () => {
  const p = page(
    `<div vocab="https://schema.org/" typeof="Product">
       <span property="name">Lamp</span>
       <img property="image" src="lamp.jpg">
       <div property="offers" typeof="Offer"><meta property="price" content="19.90"><span property="priceCurrency">EUR</span></div>
     </div>
     <ol vocab="http://schema.org/" typeof="BreadcrumbList"><li property="itemListElement" typeof="ListItem"><a property="item" href="/c"><span property="name">Cat</span></a></li></ol>
     <div prefix="s: http://schema.org/" typeof="s:Brand"><span property="s:name">B</span></div>
     <span property="gr:name">no subject</span>`,
    '<meta property="og:title" content="Lamp">',
  );
  const rdfa = p.entities.filter((e) => e.source === 'rdfa');
  assert.deepEqual(rdfa.map((e) => e.types[0]), ['Product', 'Offer', 'BreadcrumbList', 'ListItem', 'Brand']);
  assert.deepEqual(rdfa[0].props.name, ['Lamp']);
  assert.deepEqual(rdfa[0].props.image, ['https://shop.test/p/lamp.jpg']);
  assert.deepEqual(rdfa[1].props, { price: ['19.90'], priceCurrency: ['EUR'] });
  assert.deepEqual(rdfa[3].props.item, ['https://shop.test/c']);
  assert.deepEqual(rdfa[4].props.name, ['B']);
});

test('domEntities works on a bare parse5 document', () => {
  const doc = parse('<p itemscope itemtype="http://schema.org/Thing"><i itemprop="name">x</i></p>');
  const { microdata, rdfa } = domEntities(doc, null);
  assert.equal(microdata.length, 1);
  assert.equal(rdfa.length, 0);
});

// ---------------------------------------------------------------------------------------------------------------
// Flattening

test('flattenEntities: parents before children, shared entities copied once, depth capped at 64', () => {
  const shared: Entity = { types: ['Organization'], props: { name: ['S'] }, source: 'microdata' };
  const a: Entity = { types: ['Offer'], props: { seller: [shared] }, source: 'microdata' };
  const b: Entity = { types: ['Offer'], props: { seller: [shared] }, source: 'microdata' };
  const flat = flattenEntities([a, b]);
  assert.deepEqual(flat.map((e) => e.types[0]), ['Offer', 'Organization', 'Offer']);
  assert.notEqual(b.props.seller[0], shared); // second use is a copy, so the tree stays a tree
  assert.deepEqual((b.props.seller[0] as Entity).props, { name: ['S'] });

  let chain: Entity = { types: ['Thing'], props: {}, source: 'json-ld' };
  const root = chain;
  for (let i = 0; i < 200; i++) {
    const next: Entity = { types: ['Thing'], props: {}, source: 'json-ld' };
    chain.props.part = [next];
    chain = next;
  }
  const cyclic: Entity = { types: ['Thing'], props: {}, source: 'microdata' };
  cyclic.props.self = [cyclic];
  const out = flattenEntities([root, cyclic]);
  assert.equal(depthOf(root), MAX_JSON_DEPTH + 1); // the 65th level is a string-only copy
  assert.doesNotThrow(() => JSON.stringify(out));
});
