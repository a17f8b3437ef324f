// The boundary between a page and the journey (render/page-data.ts, the journey's answers): what a page script hands back is
// parsed and cut, and anything of another shape is no value, whatever the page did to the built-ins our scripts use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeAnswer, CartCountAnswer, ChoicesAnswer, fromPage, LandingAnswer, LayerAnswer, NamedControlsAnswer, SearchFieldAnswer } from '../../render/page-data.js';

test('strings are cut to their bound, not refused', async () => {
  const long = 'x'.repeat(1_000_000);
  assert.equal((await fromPage(LayerAnswer, Promise.resolve(long), null))?.length, 200);
  const controls = await fromPage(NamedControlsAnswer, Promise.resolve([{ k: 0, name: long, tag: long }]), []);
  assert.deepEqual(controls.map((c) => [c.name.length, c.tag.length]), [[80, 20]]);
});

test('wrong types, unknown values and oversized lists are no value: the fallback', async () => {
  assert.equal(await fromPage(SearchFieldAnswer, Promise.resolve({ kind: { x: 1 }, visible: true }), null), null);
  assert.equal(await fromPage(CartCountAnswer, Promise.resolve(1e9), null), null, 'a count no cart shows');
  assert.equal(await fromPage(CartCountAnswer, Promise.resolve('3'), null), null);
  assert.deepEqual(await fromPage(NamedControlsAnswer, Promise.resolve(Array.from({ length: 21 }, (_, k) => ({ k, name: 'Checkout', tag: 'a' }))), []), [], 'more controls than marked');
  const choices = { choices: [{ k: 0, kind: 'evil', label: '', option: '', value: '' }], unavailable: [] };
  assert.deepEqual(await fromPage(ChoicesAnswer, Promise.resolve(choices), { choices: [], unavailable: [] }), { choices: [], unavailable: [] });
  const landing = { fields: [], password: false, frames: [], captcha: 'MyCaptcha', human: false, guest: false, wall: false };
  assert.equal(await fromPage(LandingAnswer, Promise.resolve(landing), null as never), null, 'a captcha name the journey does not know');
});

test('a page script that throws or never answers is no value', async () => {
  assert.equal(await fromPage(LayerAnswer, Promise.reject(new Error('Execution context was destroyed')), null), null);
});

test('axe results: impact outside the four is null, nodes are counted, at most 200 rules', async () => {
  const parsed = await fromPage(AxeAnswer, Promise.resolve([{ id: 'button-name', impact: 'apocalyptic', help: 'Buttons must have discernible text', nodes: [{ target: ['#add'] }, { target: [['#host', 'button']] }] }]), null);
  assert.deepEqual(parsed?.map((v) => [v.id, v.impact, v.nodes.length]), [['button-name', null, 2]]);
  assert.equal(await fromPage(AxeAnswer, Promise.resolve(Array.from({ length: 201 }, () => ({ id: 'x', impact: null, help: '', nodes: [] }))), null), null);
});
