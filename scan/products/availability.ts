// Stock status, read one way for every caller: schema.org ItemAvailability values in any spelling (URL, "schema:",
// short name, any case), feed and OpenGraph words ("in stock", "in_stock", "oos"), and visible stock statements in
// en, de, fr, es, it, nl, pt, pl, sv, da, nb, cs/sk, sl, et, ja and zh: in stock, out of stock / sold out, pre-order,
// back-order, discontinued, only N left, available or delivered in N days. Negative statements are matched before the
// positive words inside them ("not available" is never "available").
// Deliberately not here: which part of a page is the buy box (callers pass the window they trust), whether a buy
// button means stock (the product reader decides), and store-specific wording. Every regex is linear and runs on
// capped text.
import { own } from './price.js';

const AVAILABILITY = [
  'InStock', 'OutOfStock', 'SoldOut', 'PreOrder', 'PreSale', 'BackOrder', 'Discontinued', 'InStoreOnly',
  'OnlineOnly', 'LimitedAvailability', 'MadeToOrder', 'Reserved',
];
const AVAILABILITY_BY_LOWER = new Map(AVAILABILITY.map((a) => [a.toLowerCase(), a]));
// Feed (Google, Meta) and OpenGraph spellings and the common English words for them.
const AVAILABILITY_TEXT: Record<string, string> = {
  'in stock': 'InStock', in_stock: 'InStock', 'in-stock': 'InStock', instock: 'InStock', available: 'InStock',
  'out of stock': 'OutOfStock', out_of_stock: 'OutOfStock', 'out-of-stock': 'OutOfStock', outofstock: 'OutOfStock',
  oos: 'OutOfStock', 'sold out': 'SoldOut', sold_out: 'SoldOut', soldout: 'SoldOut', preorder: 'PreOrder',
  'pre-order': 'PreOrder', 'pre order': 'PreOrder', pre_order: 'PreOrder', presale: 'PreSale', 'pre-sale': 'PreSale',
  backorder: 'BackOrder', 'back order': 'BackOrder', 'back-order': 'BackOrder', back_order: 'BackOrder',
  // Meta's catalogue value for items that ship later than stock does.
  'available for order': 'BackOrder', discontinued: 'Discontinued', 'limited availability': 'LimitedAvailability',
  limited_availability: 'LimitedAvailability', 'in store only': 'InStoreOnly', in_store_only: 'InStoreOnly',
  'online only': 'OnlineOnly', online_only: 'OnlineOnly', 'made to order': 'MadeToOrder', made_to_order: 'MadeToOrder',
};
// Most purchasable first: with several offers an agent can buy if any one of them is in stock.
const AVAILABILITY_RANK = ['InStock', 'LimitedAvailability', 'OnlineOnly', 'InStoreOnly', 'MadeToOrder', 'PreOrder', 'PreSale', 'BackOrder', 'Reserved', 'OutOfStock', 'SoldOut', 'Discontinued'];
const AVAILABLE = new Set(['InStock', 'LimitedAvailability', 'OnlineOnly', 'InStoreOnly']);
const LATER = new Set(['PreOrder', 'PreSale', 'BackOrder', 'MadeToOrder', 'Reserved']);
const UNAVAILABLE = new Set(['OutOfStock', 'SoldOut', 'Discontinued']);

/** The schema.org ItemAvailability short name when the value is one in any spelling (URL, "schema:", any case). */
export function schemaAvailability(raw: string): string | null {
  const s = raw.trim().slice(0, 100).replace(/[/#]+$/, '');
  const cut = Math.max(s.lastIndexOf('/'), s.lastIndexOf(':'), s.lastIndexOf('#'));
  // Only a schema.org URL or prefix counts as a namespace: "http://example.com/InStock" is not schema.org.
  if (cut >= 0 && !/^(?:https?:\/\/(?:www\.)?schema\.org\/?|schema:)$/i.test(s.slice(0, cut + 1))) return null;
  return AVAILABILITY_BY_LOWER.get(s.slice(cut + 1).toLowerCase()) ?? null;
}

/** True when the value is a schema.org ItemAvailability term in any of its spellings. */
export function isItemAvailability(raw: string): boolean {
  return schemaAvailability(raw) !== null;
}

/** schema.org ItemAvailability short name for a URL, short name, feed or OpenGraph word (any case); null if unknown. */
export function normaliseAvailability(raw: string): string | null {
  const schema = schemaAvailability(raw);
  if (schema) return schema;
  const lower = raw.trim().slice(0, 100).toLowerCase().replace(/[.!]+$/, '').replace(/\s+/g, ' ');
  return own(AVAILABILITY_TEXT, lower) ?? null;
}

// Stock words stores put in markup instead of a schema.org term ("NOT SOLD", "sold", "unavailable", "nostock").
const MARKUP_WORDS: Record<string, string> = {
  'not sold': 'OutOfStock', sold: 'SoldOut', unavailable: 'OutOfStock', 'not available': 'OutOfStock', 'no stock': 'OutOfStock',
  nostock: 'OutOfStock', 'not in stock': 'OutOfStock', out: 'OutOfStock', 'temporarily unavailable': 'OutOfStock',
  'temporarily out of stock': 'OutOfStock', 'low stock': 'LimitedAvailability', 'limited stock': 'LimitedAvailability',
  'few left': 'LimitedAvailability', 'last items': 'LimitedAvailability', 'coming soon': 'PreOrder', 'in store': 'InStoreOnly',
  'on order': 'BackOrder', 'special order': 'MadeToOrder', reserved: 'Reserved', yes: 'InStock', true: 'InStock',
  no: 'OutOfStock', false: 'OutOfStock', stock: 'InStock', 'on stock': 'InStock', 'available now': 'InStock',
};

/**
 * The schema.org state of any stock value a page puts in markup: a schema.org term or feed word, a store's own word
 * ("NOT SOLD", "LowStock", "coming_soon") or a stock statement in one of the languages read ("Ausverkauft"); null
 * when the value says none, so the caller can name it as unknown.
 */
export function availabilityState(raw: string): string | null {
  const direct = normaliseAvailability(raw);
  if (direct) return direct;
  const words = raw.trim().slice(0, 100).replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.!]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  const named = normaliseAvailability(words) ?? own(MARKUP_WORDS, words);
  if (named) return named;
  return agreeingStatus(new Set(stockStatements(words).map((st) => st.status)));
}

/** Whether a stock value (any spelling) lets an agent buy now, later (pre-order, back-order), or not at all. */
export function availabilityKind(raw: string): 'available' | 'later' | 'unavailable' | null {
  const v = normaliseAvailability(raw);
  if (v === null) return null;
  if (AVAILABLE.has(v)) return 'available';
  if (LATER.has(v)) return 'later';
  return UNAVAILABLE.has(v) ? 'unavailable' : null;
}

export function bestAvailability(values: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestRank = Infinity;
  for (const v of values) {
    const n = normaliseAvailability(v);
    const rank = n === null ? AVAILABILITY_RANK.length : AVAILABILITY_RANK.indexOf(n);
    if (rank < bestRank) [best, bestRank] = [n ?? v.trim(), rank];
  }
  return best === '' ? undefined : best;
}

// ---------------------------------------------------------------------------------------------------------------
// Stock statements in visible text

// Phrases per status as regex fragments, matched case-insensitively with " " standing for any short run of spaces.
// Within one alternation the longer, more specific phrase is tried first at each position, so "nicht mehr
// lieferbar" is Discontinued, "nicht lieferbar" OutOfStock and "lieferbar" InStock.
const N = String.raw`\d{1,4}`;
const RANGE = String.raw`\d{1,3}(?: ?[-–~〜] ?\d{1,3})?`;
const PHRASES: Record<string, string[]> = {
  Discontinued: [
    'discontinued', 'no longer (?:available|sold|in production|stocked|carried)', 'permanently (?:unavailable|out of stock)',
    'nicht mehr (?:lieferbar|verfügbar|erhältlich|im sortiment)', 'ausgelaufen', "(?:n'est )?plus (?:disponible|fabriqué|commercialisé)",
    'produit arrêté', 'descatalogado', 'descontinuado', 'ya no (?:está )?disponible', 'fuera de catálogo', 'fuori produzione',
    'non più disponibile', 'non più in produzione', 'niet meer (?:leverbaar|verkrijgbaar|beschikbaar)', 'uit (?:het )?assortiment',
    'fora de linha', 'não (?:está )?mais disponível', 'wycofany(?: ze sprzedaży)?', 'produkt wycofany', 'utgått', 'udgået',
    'ikke lenger tilgjengelig', '販売終了', '生産終了', '取扱終了', '停產', '停产', '停售', '已下架',
  ],
  LimitedAvailability: [
    `only ${N} (?:left|remaining)(?: in stock)?`, `(?:just|only) ${N} in stock`, 'low (?:in )?stock', 'limited stock',
    'few (?:items )?left', 'almost (?:gone|sold out)', `nur noch ${N}(?: stück| artikel)?(?: auf lager| verfügbar| vorrätig)?`,
    'geringer bestand', 'wenige (?:artikel )?(?:auf lager|verfügbar)', `(?:plus que|seulement|il (?:ne )?reste(?: plus que)?) ${N}(?: en stock| articles?| exemplaires?)?`,
    'stock limité', `(?:solo|sólo) (?:quedan )?${N}(?: unidades| en stock| disponibles?| pezzi| rimasti)?`, `últimas? ${N} unidades`,
    'pocas unidades', 'ultimi pezzi', 'disponibilità limitata', `(?:nog (?:maar )?|slechts )${N}(?: op voorraad| beschikbaar| stuks?)`,
    'beperkte voorraad', `(?:apenas|restam|últimas?) ${N}(?: em estoque| unidades| disponíveis)?`, 'estoque limitado',
    `(?:ostatni(?:e|ch)?|tylko|zostały?) ${N}(?: szt\\.?| sztuk[ai]?)?`, `(?:endast|bara|(?:kun|bare)) ${N}(?: kvar| st kvar| tilbage| igjen| på lager)`,
    'få (?:kvar|i lager|på lager|tilbage)', '残りわずか', `残り${N}(?:点|個|つ)`, '在庫僅少', '在庫わずか', '库存紧张', '庫存緊張',
    `(?:仅剩|僅剩|只剩)${N}(?:件|个|個)?`,
  ],
  PreOrder: [
    'pre-?orders?(?: now)?', 'pre order', 'available for pre-?order', 'vorbestellbar', 'vorbestellen', 'vorbestellung',
    'pr[ée]-?commande', 'en précommande', 'preventa', 'pre-?venta', 'reserva ya', 'preordine', 'pre-?ordina', 'in prenotazione',
    'voorbestellen', 'voorverkoop', 'pré-?venda', 'pré-?encomenda', 'przedsprzedaż', 'förbeställ(?:ning)?', 'förhandsboka',
    'forudbestil(?:ling)?', 'forhåndsbestill', '予約受付中', '予約商品', '予約注文', '預購', '预购', '預售', '预售',
  ],
  BackOrder: [
    'back-?order(?:ed)?', 'back order(?:ed)?', 'on back ?order', 'available (?:for|on) back-?order', 'nachbestellt',
    'im zulauf', 'wieder (?:verfügbar|lieferbar) ab', 'en réapprovisionnement', 'en cours de réapprovisionnement',
    'en reposición', 'in arrivo', 'in riassortimento', 'in nabestelling', 'em reposição', 'restnoterad', 'beställningsvara',
    'i restordre', 'restordre', 'forventes på lager', '入荷待ち', '入荷予定', 'お取り寄せ', '取り寄せ', '補貨中', '补货中',
    '待補貨', '待补货',
  ],
  MadeToOrder: [
    'made to order', 'built to order', 'auf bestellung', 'wird für sie gefertigt', 'sur commande', 'fabriqué à la commande',
    'bajo pedido', 'su ordinazione', 'op bestelling', 'sob encomenda', 'na zamówienie', 'tillverkas på beställning',
    'produceres på bestilling', '受注生産', '訂製', '定制',
  ],
  OutOfStock: [
    'out of stock', 'sold out', 'currently (?:unavailable|out of stock|not available)', 'temporarily (?:unavailable|out of stock|sold out)',
    'not (?:available|in stock|on stock)', 'unavailable', 'no stock', 'none in stock', 'notify me when (?:available|in stock|back in stock)',
    'email me when (?:available|back in stock)', 'back in stock soon', '(?:will|to) be back in stock', "when (?:it is |it's )?back in stock",
    'wieder (?:auf lager|verfügbar|lieferbar) sein', 'coming soon', 'bald wieder (?:verfügbar|lieferbar|da)',
    'bientôt (?:disponible|de retour)', 'próximamente', 'presto disponibile', 'binnenkort (?:weer )?(?:leverbaar|beschikbaar|op voorraad)',
    'em breve', 'wkrótce dostępny', 'kommer snart', 'ausverkauft', 'nicht (?:lieferbar|verfügbar|auf lager|vorrätig|mehr vorrätig)',
    '(?:derzeit|momentan|zurzeit|aktuell) nicht (?:lieferbar|verfügbar|auf lager)', 'vergriffen', 'épuisée?s?', 'rupture de stock',
    'en rupture', 'indisponible', 'non disponible', 'victime de son succès', 'agotad[oa]s?', 'sin stock', 'sin existencias',
    'fuera de stock', 'no disponible', 'temporalmente agotado', 'esaurit[oa]', 'non disponibile', 'terminat[oa]', 'non in stock',
    'uitverkocht', 'niet (?:op voorraad|leverbaar|beschikbaar)', 'tijdelijk uitverkocht', 'esgotad[oa]', 'indisponível',
    'sem estoque', 'sem stock', 'fora de estoque', 'não disponível', 'brak w magazynie', 'brak towaru', 'brak na stanie',
    'niedostępn[yae]', 'chwilowo niedostępny', 'wyprzedan[yae]', 'slut i lager', 'slutsåld', 'tillfälligt slut', 'ej i lager',
    'inte i lager', 'ej tillgänglig', 'udsolgt', 'ikke på lager', 'midlertidigt udsolgt', 'ikke tilgængelig', 'utsolgt',
    'ikke tilgjengelig', '(?:currently|at the moment) (?:not possible|impossible) to (?:buy|order)', 'momentálne nie je možné (?:produkt |tovar )?(?:kúpiť|objednať)',
    'momentálně není možné (?:produkt |zboží )?(?:koupit|objednat)', 'nie je skladom', 'this (?:item|listing) (?:has been|was|is) sold', '(?:this )?listing (?:has )?ended', 'bidding (?:has )?ended',
    'angebot (?:ist )?beendet', 'artikel (?:wurde )?verkauft', 'annonce (?:expirée|désactivée)', 'article vendu', 'anuncio (?:finalizado|caducado)',
    'artículo vendido', 'inserzione (?:terminata|scaduta)', 'oggetto venduto', 'объявление (?:снято|закрыто)', 'товар продан', '(?:pole|ei ole) (?:hetkel |praegu )?saadaval', 'vyprodáno', 'není skladem', 'vypredané', 'nedostupné', 'ni na zalogi', 'ni dobavljivo', 'pole laos',
    '在庫なし', '在庫切れ', '在庫がありません', '売り切れ', '品切れ', '完売', '缺貨', '缺货', '售完', '已售完', '售罄', '已售罄',
    '無庫存', '无库存', '暫時缺貨', '暂时缺货', '沒有庫存', '没有库存',
  ],
  InStock: [
    'in stock', 'available now', 'available to buy', 'ready to ship', 'ships today', 'auf lager', 'sofort lieferbar',
    'sofort verfügbar', 'lieferbar', 'vorrätig', 'en stock', 'disponible', 'expédié sous 24 ?h', 'en existencia',
    'hay existencias', 'disponibile', 'disponibilità immediata', 'in magazzino', 'pronta consegna', 'op voorraad',
    'direct leverbaar', 'leverbaar', 'em estoque', 'em stock', 'disponível', 'pronta entrega', 'dostępny', 'w magazynie',
    'na stanie', 'produkt dostępny', 'i lager', 'finns i lager', 'i webblager', 'på lager', 'skladem', 'na sklade', 'skladom',
    'na zalogi', 'dobavljivo', 'laos', '在庫あり', '在庫有り', '在庫あります', '即納', '有現貨', '現貨', '现货', '有库存',
    '有庫存', '有貨', '有货',
  ],
};
// "Available / ships / delivered in N days|weeks": a delivery estimate. Days mean the item is there (in stock); weeks
// or months mean it has to come in first (back-order).
const DELIVERY_IN = [
  String.raw`(?:available|ships?|dispatch(?:ed|es)?|delivered|delivery|usually ships|in stock) (?:in|within) (?:about |approx\.? )?${RANGE} ?(?:business |working )?(?:hours?|days?|weeks?|months?)`,
  String.raw`(?:lieferbar|verfügbar|versandfertig|lieferzeit:?|lieferung) ?(?:in|innerhalb(?: von)?)? ?(?:ca\. )?${RANGE} ?(?:werk|arbeits)?(?:stunden?|tagen?|wochen?|monaten?)`,
  String.raw`(?:disponible|expédié|livré|livraison|expédition) (?:sous|en|dans|sous un délai de) ${RANGE} ?(?:heures?|jours?|semaines?|mois)`,
  String.raw`(?:disponible|envío|enviado|entrega) (?:en|dentro de) ${RANGE} ?(?:horas?|días?|semanas?|meses)`,
  String.raw`(?:disponibile|spedito|spedizione|consegna) (?:in|entro|tra) ${RANGE} ?(?:ore|giorni|settimane|mesi)`,
  String.raw`(?:leverbaar|beschikbaar|verzonden|levertijd:?|geleverd) ?(?:binnen|over|in)? ?${RANGE} ?(?:uur|dagen|dag|weken|week|maanden)`,
  String.raw`(?:disponível|enviado|entrega) (?:em|dentro de) ${RANGE} ?(?:horas?|dias?|semanas?|meses)`,
  String.raw`(?:dostępny|wysyłka|dostawa) (?:w|za|w ciągu) ${RANGE} ?(?:godzin[ya]?|dni|dzień|tygodni[ea]?|miesiąc[ea]?)`,
  String.raw`(?:leverans|levereras|skickas|leveranstid:?) ?(?:inom|på)? ?${RANGE} ?(?:timmar|dagar|dag|veckor|vecka|månader)`,
  String.raw`(?:levering|leveres|sendes|leveringstid:?) ?(?:inden for|på|om)? ?${RANGE} ?(?:timer|dage|dag|uger|uge|måneder)`,
  String.raw`${RANGE} ?(?:時間|日|営業日|週間|ヶ月)(?:以内に|程度で|で)?(?:発送|出荷)`,
  String.raw`${RANGE} ?(?:小時|小时|天|個工作天|个工作日|工作天|工作日|週|周|個月|个月)(?:內|内)?(?:出貨|出货|發貨|发货)`,
];
// Units of a delivery estimate that still mean "on the shelf" (hours and days, in the languages above).
const DAY_UNITS =
  /(?<!\p{L})(?:hours?|days?|stunden?|(?:werk|arbeits)?tag(?:e|en)?|heures?|jours?|horas?|días?|ore|giorni|uur|dagen|dag|dias?|godzin[ya]?|dni|dzień|timmar|dagar|timer|dage)(?!\p{L})|時間|日|小時|小时|天|工作日/iu;
const BACKORDER_AFTER_DAYS = 10; // more than two working weeks to dispatch: the item is not on the shelf

function alternative(fragment: string): string {
  const src = fragment.replace(/ \?/g, String.raw`\s{0,3}`).replace(/ /g, String.raw`\s{1,3}`);
  // Word boundaries for scripts that separate words; Chinese and Japanese do not ("商品在庫なし").
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(fragment)) return `(?:${src})`;
  return `(?<![\\p{L}\\d])(?:${src})(?![\\p{L}])`;
}

const STATUS_ORDER = ['Discontinued', 'LimitedAvailability', 'PreOrder', 'MadeToOrder', 'BackOrder', 'OutOfStock', 'InStock'] as const;
const STOCK_RE = new RegExp(
  [
    `(?<delivery>${DELIVERY_IN.map(alternative).join('|')})`,
    ...STATUS_ORDER.map((s) => `(?<${s}>${PHRASES[s].map(alternative).join('|')})`),
  ].join('|'),
  'giu',
);
const TEXT_CAP = 20_000;

export interface StockStatement {
  status: string;
  text: string;
  index: number;
}

/** Every stock statement in a text, in order (at most 50), each with the schema.org status it states. */
export function stockStatements(raw: string): StockStatement[] {
  const text = raw.slice(0, TEXT_CAP);
  const out: StockStatement[] = [];
  STOCK_RE.lastIndex = 0;
  for (let m = STOCK_RE.exec(text); m !== null && out.length < 50; m = STOCK_RE.exec(text)) {
    const g = m.groups ?? {};
    let status: string | undefined = STATUS_ORDER.find((s) => g[s] !== undefined);
    if (g.delivery !== undefined) status = deliveryStatus(m[0]);
    if (status) out.push({ status, text: m[0], index: m.index });
  }
  return out;
}

/** "ships in 3-5 days" → InStock; "available in 2 weeks", "in 20 days" → BackOrder. */
function deliveryStatus(statement: string): string {
  const most = Math.max(...(statement.match(/\d+/g) ?? ['0']).map(Number));
  return DAY_UNITS.test(statement) && most <= BACKORDER_AFTER_DAYS ? 'InStock' : 'BackOrder';
}

/**
 * The stock status a window of visible text states, or null when it states none or contradicts itself ("in stock
 * online, out of stock in store"). Negatives are matched first: "not available", "nicht lieferbar" are OutOfStock.
 * A statement that refines another counts as that one: "out of stock — available for back-order" is BackOrder,
 * "only 2 left" with "in stock" is LimitedAvailability.
 */
export function textAvailability(window: string): string | null {
  return agreeingStatus(new Set(stockStatements(window).map((s) => s.status)));
}

/** The one status a set of stated statuses comes to (see textAvailability), or null when they disagree or are none. */
export function agreeingStatus(found: ReadonlySet<string>): string | null {
  if (found.size === 0) return null;
  if (found.size === 1) return [...found][0];
  if (found.size === 2 && found.has('InStock') && found.has('LimitedAvailability')) return 'LimitedAvailability';
  if (found.size === 2 && found.has('OutOfStock') && found.has('BackOrder')) return 'BackOrder';
  if (found.size === 2 && found.has('OutOfStock') && found.has('PreOrder')) return 'PreOrder';
  return null;
}
