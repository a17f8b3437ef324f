// The journey in a merchant's words: each step's name, and why a journey stopped in one plain sentence with the fix
// in the form of the checks' fixes (the effort, and steps per platform where they differ). The report page, its
// Markdown, the agent brief and the improve_store_readiness prompt all read them from here.
import type { MerchantFix } from '../checks/check.js';
import type { JourneyBlocker, JourneyStepName } from '../../schemas/journey.js';

export const STEP_LABELS: Record<JourneyStepName, string> = {
  search: 'Site search',
  open_product: 'Product page',
  dismiss_overlay: 'Cookie wall or pop-up',
  choose_variant: 'Size or colour',
  add_to_cart: 'Add to cart',
  open_cart: 'Cart',
  start_checkout: 'Checkout button',
  checkout: 'Checkout',
};

export interface BlockerText {
  /** What happened, for the merchant. */
  sentence: string;
  fix: MerchantFix;
}

export const BLOCKERS: Record<JourneyBlocker, BlockerText> = {
  no_product: {
    sentence: 'No product page could be found to walk: an agent that cannot reach a product cannot buy it.',
    fix: {
      plain: 'Link your products from the home page and list them in your sitemap, so agents find a product page to start from.',
      effort: 'about an hour',
      steps: {
        shopify: 'Show a featured collection on the home page; Shopify lists products in /sitemap.xml already.',
        woocommerce: 'Add a product block to the home page and turn on the product sitemap of your SEO plugin.',
        bigcommerce: 'Show featured products on the home page; BigCommerce lists products in /xmlsitemap.php.',
        custom: 'Link a few products from the home page and list every product URL in /sitemap.xml.',
      },
    },
  },
  no_buy_control: {
    sentence: 'The product page has no add-to-cart or buy button an agent can find.',
    fix: {
      plain: 'Show an "Add to cart" button on every product page, as a real button with those words, not only an express payment button.',
      effort: 'about an hour',
      steps: {
        shopify: 'In the theme editor, make sure the product template includes the "Buy buttons" block.',
        woocommerce: 'Check that your theme or a plugin has not removed the add-to-cart button from single product pages.',
        bigcommerce: 'In Page Builder, keep the "Add to Cart" button on the product page.',
        custom: 'Render a <button type="submit">Add to cart</button> inside the product form.',
      },
    },
  },
  unnamed_control: {
    sentence: 'The buy button has no name an agent can read: it is an icon without text or label, so agents cannot tell it from any other button.',
    fix: {
      plain: 'Give the buy button a name: visible words such as "Add to cart", or an aria-label on an icon-only button.',
      effort: 'a few minutes',
      steps: {
        shopify: 'In your theme code, add aria-label="Add to cart" to the icon button in the product form snippet.',
        woocommerce: 'Add aria-label="Add to cart" to the icon button in your theme\'s single product template.',
        bigcommerce: 'In your theme\'s product view template, add aria-label="Add to cart" to the icon button.',
        custom: 'Write <button aria-label="Add to cart"> (or visible text) on the icon-only button.',
      },
    },
  },
  covered: {
    sentence: 'A cookie wall or a pop-up covers the buy button, and it has no accept or close button an agent can name.',
    fix: {
      plain: 'Show the cookie notice as a banner that leaves the page usable, and give every pop-up a labelled close button.',
      effort: 'about an hour',
      steps: {
        shopify: 'Use a cookie banner app that shows a bottom banner with an "Accept" button, and turn off pop-ups on product pages.',
        woocommerce: 'Set your consent plugin to a banner layout with an "Accept" button rather than a full-page wall.',
        bigcommerce: 'Use the built-in cookie consent banner, and keep pop-ups off product pages.',
        custom: 'Give the consent dialog a button named "Accept" (or "Close") and do not cover the whole page.',
      },
    },
  },
  variant_unavailable: {
    sentence: 'The product could not be added: a size or colour had to be chosen first, and no available option made the buy button work.',
    fix: {
      plain: 'Preselect an available option, or make every choice a labelled select or set of buttons an agent can pick, and say which options are sold out.',
      effort: 'about an hour',
      steps: {
        shopify: 'Let the theme preselect the first available variant (the default in Dawn and most themes).',
        woocommerce: 'Set a default variation for variable products, and use labelled dropdowns for attributes.',
        bigcommerce: 'Set a default option for products with options, and keep option labels visible.',
        custom: 'Preselect an available variant, label every choice, and keep the buy button enabled once a valid choice is made.',
      },
    },
  },
  cart_stayed_empty: {
    sentence: 'Pressing the buy button did not put the product in the cart: no cart count, no cart drawer and no cart page showed it.',
    fix: {
      plain: 'Make the buy button work without extra steps, and show that the product was added: a cart count, a drawer naming it, or the cart page.',
      effort: 'about an hour',
      steps: {
        shopify: 'Check the browser console on the product page for errors from theme scripts or apps, and test the buy button with apps turned off.',
        woocommerce: 'Turn off AJAX add-to-cart to test the plain form, and check the browser console for script errors.',
        bigcommerce: 'Check the browser console for errors from theme scripts or apps on the product page.',
        custom: 'Make the product form post to your cart even when scripts fail, and update a visible cart count.',
      },
    },
  },
  no_checkout_control: {
    sentence: 'The cart has no checkout button an agent can find, or it leads to no checkout.',
    fix: {
      plain: 'Show a "Checkout" button on the cart page and in the cart drawer, leading straight to the checkout.',
      effort: 'a few minutes',
      steps: {
        shopify: 'In the theme editor, keep the checkout button in the cart drawer and on the cart page.',
        woocommerce: 'Keep the "Proceed to checkout" button on the cart page and in the mini-cart.',
        bigcommerce: 'Keep the "Check out" button on the cart page and in the preview cart.',
        custom: 'Add a link or button named "Checkout" to the cart, pointing at your checkout page.',
      },
    },
  },
  login_required: {
    sentence: 'The checkout asks shoppers to sign in and offers no guest checkout: agents stop here, and this is where most agent purchases are abandoned.',
    fix: {
      plain: 'Let shoppers check out as guests, without creating an account, and say so on the cart page.',
      effort: 'a few minutes',
      steps: {
        shopify: 'In your customer account settings, make accounts optional (not required) at checkout.',
        woocommerce: 'In WooCommerce → Settings → Accounts & Privacy, allow customers to place orders without an account.',
        bigcommerce: 'In your checkout settings, turn on guest checkout.',
        custom: 'Offer checkout without an account, and name the guest path ("Continue as guest").',
      },
    },
  },
  challenge: {
    sentence: 'A bot check (a CAPTCHA or "verify you are human") stands between the cart and the checkout: agents cannot pass it.',
    fix: {
      plain: 'Let verified agents through the bot check at checkout: challenge on abuse signals, not on every visit, and exempt signed agent requests.',
      effort: 'a day or more',
      steps: {
        shopify: 'Turn off the hCaptcha on checkout in your store\'s bot protection settings, or limit it to suspicious traffic.',
        woocommerce: 'Remove CAPTCHA from the checkout form or show it only after failed payments.',
        bigcommerce: 'Limit the checkout CAPTCHA to suspicious traffic in your security settings.',
        custom: 'Challenge only on abuse signals, and exempt requests signed with Web Bot Auth.',
      },
    },
  },
  timeout: {
    sentence: 'The journey ran out of time before the checkout: a page on the way did not load or answer in time.',
    fix: {
      plain: 'Make product, cart and checkout pages load quickly: agents give up on pages that never settle.',
      effort: 'a day or more',
      steps: {
        custom: 'Find the step that timed out in the journey and check that page\'s load time and scripts.',
      },
    },
  },
  error: {
    sentence: 'A page on the way to the checkout failed: it answered with an error, redirected in a loop or could not be opened.',
    fix: {
      plain: 'Open the step that failed in the journey and fix that page: agents cannot buy past an error.',
      effort: 'about an hour',
      steps: {
        custom: 'Reproduce the failing step in a browser with a fresh profile (no cookies) and fix the error it shows.',
      },
    },
  },
};
