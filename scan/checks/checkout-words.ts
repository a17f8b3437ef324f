// Phrases about buying without an account, in the languages the audit reads: checkout_guest reads them on the
// fetched pages, and the buying journey (scan/journey/) on the checkout it reaches.

/** A guest path: buying without an account. */
export const GUEST_PHRASES = ['guest checkout', 'checkout as guest', 'check out as guest', 'continue as guest', 'continue as a guest', 'checkout as a guest', 'buy as guest', 'als gast bestellen', 'als gast fortfahren', 'gastbestellung', 'commander en tant qu\'invité', 'continuer en tant qu\'invité', 'comprar como invitado', 'acquista come ospite', 'als gast afrekenen'];

/** An account wall before buying. */
export const ACCOUNT_WALL_PHRASES = ['sign in to checkout', 'sign in to check out', 'log in to checkout', 'login to checkout', 'log in to purchase', 'sign in to purchase', 'create an account to checkout', 'create an account to check out', 'create an account to purchase', 'register to checkout', 'members only', 'login to see prices', 'log in to see prices', 'sign in to see prices'];
