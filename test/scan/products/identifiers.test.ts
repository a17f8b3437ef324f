// scan/products/identifiers.ts: GTIN-8/12/13/14 and ISBN-10/13 check digits, ISBN-10 → ISBN-13, what a value is, the code in
// a labelled text (with zyte-parsers' examples), and linear time on hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyGtin, gtinInText, gtinValid, isbn10To13, isbn10Valid } from '../../../scan/products/identifiers.js';
import { GTIN_CLASSIFICATION, GTIN_IN_TEXT } from '../../fixtures/zyte-gtin-examples.js';
import { assertLinear } from '../../helpers/timing.js';

test('gtinValid: GTIN-8/12/13/14 lengths and the GS1 check digit, spaces and hyphens ignored', () => {
  for (const ok of ['4006381333931', '9780552173742', '73513537', '036000291452', '10614141000415', '978-0-552-17374-2', '4 006381 333931']) {
    assert.equal(gtinValid(ok), true, ok);
  }
  for (const bad of ['4006381333932', '32429335302', '123', 'ABCDEFGHIJKLM', '', '0552173742', '40063813339310']) {
    assert.equal(gtinValid(bad), false, bad);
  }
});

test('ISBN-10: its own mod-11 check digit (X = 10) and its ISBN-13', () => {
  for (const ok of ['0-306-40615-2', '0552173746', '080442957X', '0-8044-2957-x']) assert.equal(isbn10Valid(ok), true, ok);
  for (const bad of ['0-306-40615-3', '0552173742', '055217374', '9780552173742', 'X804429570']) assert.equal(isbn10Valid(bad), false, bad);
  assert.equal(isbn10To13('0-306-40615-2'), '9780306406157');
  assert.equal(isbn10To13('0552173746'), '9780552173742');
  assert.equal(isbn10To13('0-306-40615-3'), null);
});

test('classifyGtin: what a whole value is', () => {
  assert.deepEqual(classifyGtin('978-0-306-40615-7'), { kind: 'isbn13', value: '9780306406157', gtin: '9780306406157' });
  assert.deepEqual(classifyGtin('0-306-40615-2'), { kind: 'isbn10', value: '0306406152', gtin: '9780306406157' });
  assert.deepEqual(classifyGtin('4006381333931'), { kind: 'gtin13', value: '4006381333931', gtin: '4006381333931' });
  assert.equal(classifyGtin('9790035236338')?.kind, 'gtin13'); // 979-0 is the ISMN (printed music) range
  assert.equal(classifyGtin('036000291452')?.kind, 'gtin12');
  assert.equal(classifyGtin('73513537')?.kind, 'gtin8');
  assert.equal(classifyGtin('10614141000415')?.kind, 'gtin14');
  assert.equal(classifyGtin('EAN: 4006381333931'), null); // a label is for gtinInText
  assert.equal(classifyGtin('4006381333932'), null);
});

test('gtinInText: the code in a labelled text value', () => {
  assert.equal(gtinInText('EAN: 4 006381 333931')?.value, '4006381333931');
  assert.equal(gtinInText('ISBN 978-0-306-40615-7')?.kind, 'isbn13');
  assert.deepEqual(gtinInText('ISBN-10: 0-306-40615-2'), { kind: 'isbn10', value: '0306406152', gtin: '9780306406157' });
  assert.equal(gtinInText('EAN 4006381333931 12 pcs')?.value, '4006381333931'); // a number after the code
  assert.equal(gtinInText('Art.-Nr. 4006381333931')?.value, '4006381333931');
  assert.equal(gtinInText('Model HD978193-INT3624341'), null);
  assert.equal(gtinInText('EAN: 4006381333932'), null);
  assert.equal(gtinInText(''), null);
});

test('zyte-parsers examples: classification and extraction agree', () => {
  const wrong = [
    ...GTIN_CLASSIFICATION.filter(([v, kind]) => (gtinInText(v)?.kind ?? null) !== kind).map(([v, kind]) => `${JSON.stringify(v)}: ${gtinInText(v)?.kind} (expected ${kind})`),
    ...GTIN_IN_TEXT.filter(([v, value]) => (gtinInText(v)?.value ?? null) !== value).map(([v, value]) => `${JSON.stringify(v)}: ${gtinInText(v)?.value} (expected ${value})`),
  ];
  assert.deepEqual(wrong, []);
});

test('linear time on long runs of digits, separators and labels', () => {
  const shapes: [string, (n: number) => string][] = [
    ['digits', (n) => '1'.repeat(n)],
    ['digit-space', (n) => '1 '.repeat(n / 2)],
    ['digit-hyphen', (n) => '1-'.repeat(n / 2)],
    ['labels', (n) => 'EAN13 '.repeat(n / 6)],
  ];
  for (const [label, make] of shapes) {
    assertLinear(`gtinInText ${label}`, 2_000, make, (t) => gtinInText(t));
    assertLinear(`gtinValid ${label}`, 2_000, make, (t) => gtinValid(t));
    assertLinear(`classifyGtin ${label}`, 2_000, make, (t) => classifyGtin(t));
  }
});
