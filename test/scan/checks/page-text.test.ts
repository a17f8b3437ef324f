// Link haystacks (scan/checks/page-text.ts): the path is read off the absolute URL without parsing it again, and
// must be what the URL parser gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LinkInfo } from '../../../scan/artifacts.js';
import { linkHaystack } from '../../../scan/checks/page-text.js';

const link = (href: string, text = 'Returns', base = 'https://shop.example/en/'): LinkInfo => {
  const u = URL.parse(href, base);
  const url = u && (u.protocol === 'http:' || u.protocol === 'https:') ? u.href : null;
  return { href, url, text, rel: [] };
};

describe('linkHaystack', () => {
  it('anchor text and the URL path as the URL parser reads it: no query, no fragment, lower case', () => {
    const hrefs = [
      '/Pages/Return-Policy?return_to=/cart#top',
      'https://SHOP.example',
      'https://shop.example:8443/a/b/',
      'http://user:pw@shop.example/p%C3%BCnkt?x=1',
      '../refunds#faq?x',
      'https://shop.example?q=returns',
      'https://shop.example/#/shipping',
      'help/contact us',
      'mailto:help@shop.example',
      'javascript:void(0)',
      'https://shop.example/very/' + 'long-'.repeat(100),
    ];
    for (const href of hrefs) {
      const l = link(href);
      const path = l.url ? new URL(l.url).pathname : href;
      assert.equal(linkHaystack(l), `${l.text} ${path.split('?')[0].slice(0, 300)}`.toLowerCase(), href);
    }
  });

  it('the same link object gives the same haystack; a different link its own', () => {
    const a = link('/returns', 'Our policy');
    const b = link('/contact', 'Our policy');
    assert.equal(linkHaystack(a), 'our policy /returns');
    assert.equal(linkHaystack(a), 'our policy /returns');
    assert.equal(linkHaystack(b), 'our policy /contact');
  });
});
