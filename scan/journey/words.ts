// The words a browser agent goes by on its way to the checkout, in the languages the audit reads (English, German,
// French, Spanish, Italian, Dutch). Accessible names are matched against them; the page scripts get their sources.
import { ACCOUNT_WALL_PHRASES, GUEST_PHRASES } from '../checks/checkout-words.js';

/** An add-to-cart or buy control (the browser view's words). */
export const BUY_WORDS = /add(ing)? to (cart|bag|basket|trolley)|buy (it )?now|\bbuy\b|in den warenkorb|jetzt kaufen|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen/i;

/** Preferred among the buy controls: an add-to-cart keeps the agent on the way to the cart. */
export const ADD_TO_CART_WORDS = /add(ing)? to (cart|bag|basket|trolley)|in den warenkorb|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen/i;

/** A control that pays or places an order, or an express payment button: never pressed by the journey. */
export const NEVER_PRESS_WORDS =
  /place (my |the |your )?order|\bpay\b|pay now|paypal|apple pay|google pay|shop ?pay|complete (my |the |your )?(order|purchase)|confirm (and pay|(my |the )?order|purchase)|submit (my |the )?order|zahlungspflichtig|bestellung (abschicken|absenden)|jetzt bezahlen|kostenpflichtig|\bpayer\b|confirmer (la |ma )?commande|valider (la |ma )?commande|realizar (el )?pedido|confirmar (el )?pedido|\bpagar\b|conferma (l'|l’)?ordine|paga (ora|adesso)|bestelling plaatsen|nu betalen/i;

/** A link or button to the cart. */
export const CART_WORDS = /\b(cart|bag|basket|trolley)\b|warenkorb|einkaufswagen|panier|carrito|cesta|carrello|winkelwagen|winkelmand/i;

/** Where carts live, in a URL path. */
export const CART_PATH = /\/(cart|basket|bag|warenkorb|panier|carrito|carrello|winkelwagen)(\/|\.|$|\?)/i;

/** A control that starts the checkout from the cart. */
export const CHECKOUT_WORDS =
  /check ?out|proceed to (checkout|payment)|continue to (checkout|payment)|zur kasse|kasse|passer (la )?commande|paiement|finalizar (la )?compra|tramitar (el )?pedido|procedi (all'acquisto|al checkout|con l'ordine)|vai alla cassa|afrekenen|naar de kassa/i;

/** Where checkouts live, in a URL path. */
export const CHECKOUT_PATH = /\/(checkouts?|kasse|commande|pago|cassa|afrekenen|onepage|order\/checkout)(\/|\.|$|\?)|\/checkouts\//i;

/** The accept or close control of a cookie wall or a modal. */
export const DISMISS_WORDS =
  /^(accept( all)?( cookies)?|accept and (close|continue)|i accept|agree|i agree|allow( all)?( cookies)?|ok|okay|got it|close|dismiss|no thanks|×|✕|x|alle akzeptieren|akzeptieren|alle cookies akzeptieren|zustimmen|einverstanden|schließen|tout accepter|accepter( et fermer)?|j'accepte|fermer|aceptar( todo| todas)?( las cookies)?|acepto|cerrar|accetta( tutti)?|accetto|chiudi|alles accepteren|accepteren|akkoord|sluiten)[.!]?$/i;

/** A sold-out option of a variant choice. */
export const SOLD_OUT_WORDS = /sold out|out of stock|unavailable|ausverkauft|nicht verfügbar|épuisé|indisponible|agotado|esaurito|non disponibile|uitverkocht/i;

/** A page that asks a person to prove they are one. */
export const HUMAN_CHECK_WORDS = /verify (that )?you are (a )?human|are you a robot|checking (if the site connection is secure|your browser)|just a moment|confirm you are human|bestätigen sie, dass sie ein mensch sind|vérifiez que vous êtes humain|verifica che sei un essere umano|verifique que es humano/i;

/** A guest path and an account wall, from the phrases checkout_guest reads. */
export const GUEST_WORDS = phrases([...GUEST_PHRASES, 'continue without an account', 'checkout without an account', 'ohne kundenkonto', 'sans compte', 'sin cuenta', 'senza registrazione', 'zonder account']);
export const SIGN_IN_WALL_WORDS = phrases(ACCOUNT_WALL_PHRASES);

function phrases(list: readonly string[]): RegExp {
  return new RegExp(list.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
}

/** A control that opens a hidden search field. */
export const SEARCH_WORDS = /search|suche|suchen|recherche|rechercher|buscar|cerca|zoeken/i;

/** Hosts of payment providers' frames on a checkout. */
export const PAYMENT_FRAME_HOSTS = /(^|\.)(stripe\.com|paypal\.com|paypalobjects\.com|adyen\.com|braintreegateway\.com|checkout\.com|klarna\.com|mollie\.com|squareup\.com|square\.site|shopifycs\.com|shop\.app|worldpay\.com|authorize\.net|affirm\.com|afterpay\.com)$/i;
