// A markup price in a currency without decimals: "12.990" with priceCurrency CLP is twelve thousand nine hundred
// and ninety pesos, as the page prints it ("$12.990"), never 12.99.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../scan/documents/html.js';
import { extractProduct } from '../../scan/products/product.js';

const page = (head: string, body: string) =>
  extractProduct(
    parsePage(
      `<!doctype html><html lang="es"><head><title>Polera</title>${head}</head><body><h1>Polera algodón</h1>${body}<form action="/cart/add"><button>Agregar al carro</button></form></body></html>`,
      'https://tienda.example.com/p/polera',
    ),
  );
const ld = (price: string, currency: string) =>
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Polera algodón","offers":{"@type":"Offer","price":"${price}","priceCurrency":"${currency}"}}</script>`;

test('JSON-LD "12.990" in CLP is 12990, beside the printed "$12.990"; in EUR it stays 12.99', () => {
  const clp = page(ld('12.990', 'CLP'), '<p>$12.990</p>');
  assert.equal(clp?.price?.value, 12990);
  assert.equal(clp?.currency?.value, 'CLP');
  assert.equal(page(ld('12.990', 'EUR'), '<p>12,99 €</p>')?.price?.value, 12.99);
});

test('OpenGraph "12.990" with og:price:currency CLP is 12990', () => {
  const og = page('<meta property="og:price:amount" content="12.990"><meta property="og:price:currency" content="CLP">', '');
  assert.equal(og?.price?.value, 12990);
});
