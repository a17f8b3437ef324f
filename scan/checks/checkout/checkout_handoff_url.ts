// Can an agent hand the shopper a ready cart? A protocol path (UCP cart/checkout, ACP checkout, MCP cart tools) or a
// platform with a documented cart permalink passes; a constructible GET cart URL is partial.
import { defineCheck } from '../check.js';
import { snippet } from '../evidence.js';
import { sampledPdps } from '../product-pages.js';
import { readAcp, readUcp } from '../../documents/protocol-documents.js';

const PERMALINK_PLATFORMS: Record<string, string> = {
  shopify: 'Shopify cart permalinks (/cart/{variant_id}:{qty})',
  woocommerce: 'WooCommerce ?add-to-cart={id}',
  bigcommerce: 'BigCommerce /cart.php?action=add&product_id={id}',
};
const CART_PATH = /cart|basket|bag|checkout|warenkorb|panier|carrito|carrello/i;
const CART_QUERY = /[?&](add-to-cart|add_to_cart|addtocart|action=add|product_id|variant_id|variant|pid|sku|id)=/i;

export default defineCheck({
  id: 'checkout_handoff_url',
  label: 'Cart or checkout an agent can hand off',
  title: 'Agents can hand the shopper a ready cart',
  failureTitle: 'Give agents a cart link they can hand to the shopper',
  why: 'Agents that cannot pay themselves build a basket and hand it to the shopper; that needs a cart URL they can construct or a protocol that returns one.',
  how: 'Support a deterministic cart URL (Shopify `/cart/{variant_id}:{qty}`, WooCommerce `?add-to-cart={id}`) or, better, a UCP/ACP checkout or MCP cart tool that returns a checkout URL, so the agent can pass a ready basket to the buyer.',
  fix: {
    plain: 'Give agents a way to build a ready cart and hand it to the shopper, so the shopper only has to pay.',
    effort: 'about an hour',
    steps: {
      shopify: 'Nothing to install: Shopify cart links (/cart/VARIANT_ID:QUANTITY) work on every store; keep them reachable.',
      woocommerce: 'Add-to-cart links (/?add-to-cart=PRODUCT_ID) work out of the box; make sure no plugin or firewall blocks them.',
      bigcommerce: 'Add-to-cart links (/cart.php?action=add&product_id=PRODUCT_ID) work on most stores; make sure nothing blocks them.',
      custom: 'Support a cart link that adds a product by its id and quantity, or a checkout service that returns a checkout link; the detail is below.',
    },
  },
  run(a) {
    const ucp = readUcp(a);
    const ucpCaps = (ucp?.capabilities ?? []).filter((c) => c === 'dev.ucp.shopping.cart' || c === 'dev.ucp.shopping.checkout');
    if (ucpCaps.length > 0) return { status: 'pass', evidence: `UCP capability ${ucpCaps.join(', ')}.` };
    const acp = readAcp(a);
    const acpServices = (acp?.services ?? []).filter((s) => s === 'checkout' || s === 'carts' || s === 'cart');
    if (acpServices.length > 0) return { status: 'pass', evidence: `ACP service ${acpServices.join(', ')}.` };
    const tools = (a.mcp?.initializeResult ? a.mcp.tools : []).filter((t) => /cart|checkout/i.test(t));
    if (tools.length > 0) return { status: 'pass', evidence: `MCP tools ${tools.slice(0, 4).join(', ')} at ${a.mcp?.endpoint}.` };
    const platform = PERMALINK_PLATFORMS[a.platform];
    if (platform) return { status: 'pass', evidence: `Detected platform ${a.platform}: ${platform}.` };

    for (const { page, url } of sampledPdps(a)) {
      if (!page) continue;
      const form = page.forms.find((f) => f.method === 'get' && CART_PATH.test((f.action ?? '').slice(0, 300)));
      if (form) return { status: 'partial', evidence: `${url}: GET form to ${snippet(form.action, 100)} gives a constructible cart URL.` };
      const link = page.links.find((l) => CART_QUERY.test((l.url ?? '').slice(0, 500)) && CART_PATH.test((l.url ?? '').slice(0, 500)));
      if (link) return { status: 'partial', evidence: `${url}: cart link with a query parameter ${snippet(link.url, 120)}.` };
    }
    return { status: 'fail', evidence: `No protocol cart/checkout, no platform cart permalink (platform ${a.platform}) and no GET cart URL on the product pages.` };
  },
});
