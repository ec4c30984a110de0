import type { BrowserActionArgs } from '@hs/contracts';

/**
 * The agent prepares, it never pays: a control whose name reads like paying or ordering, a
 * payment field, or a checkout/payment page is out of its reach (the user does that part).
 * Shops are in many languages and name their buttons freely, so the words are broad: a refusal
 * costs the user one press, a miss could cost them an order they did not place.
 */
const PAYMENT_CONTROL = new RegExp(
  [
    // English
    'pay(ment|ing)?',
    'place (the |my |your )?order',
    '(submit|complete|confirm|finish|review)( (the|my|your))? (order|purchase|payment)',
    'order now',
    'check ?out',
    'buy',
    'purchase',
    '1-click',
    'one-click',
    'subscribe',
    'card number',
    'cvc',
    'cvv',
    'security code',
    'expiry',
    'expiration',
    // German, French, Spanish, Italian, Dutch, Portuguese
    '(jetzt |zahlungspflichtig )?(kaufen|bestellen|bezahlen|zahlen)',
    'zur kasse',
    'kasse',
    'commander',
    'payer',
    'acheter',
    'valider (la |ma )?commande',
    'paiement',
    'comprar',
    'pagar',
    'realizar (el )?pedido',
    'finalizar (la )?compra',
    'acquista',
    'paga',
    'ordina',
    'afrekenen',
    'betalen',
    'kopen',
    'finalizar',
  ]
    .map((words) => `\\b${words}\\b`)
    .join('|'),
  'i',
);

/** Words of a URL's path or query that name a checkout or payment step. */
const PAYMENT_URL_WORDS = new Set([
  'checkout',
  'checkouts',
  'payment',
  'payments',
  'pay',
  'paypal',
  'billing',
  'purchase',
  'placeorder',
  'kasse',
  'bezahlen',
  'zahlung',
  'paiement',
  'pago',
  'pagamento',
  'afrekenen',
  'betalen',
]);
/** An order page that places or confirms it (`/order/confirm`), not the order history. */
const ORDER_STEP_WORDS = new Set(['confirm', 'confirmation', 'place', 'submit', 'review', 'complete']);

/** Query parameters that carry what the shopper typed (`?q=payment plans`), not a step. */
const SEARCH_TEXT_PARAMS = new Set(['q', 'query', 'search', 's', 'k', 'keyword', 'keywords', 'term']);

function isPaymentUrl(url: string): boolean {
  const parsed = new URL(url);
  const query = [...parsed.searchParams]
    .filter(([name]) => !SEARCH_TEXT_PARAMS.has(name.toLowerCase()))
    .map(([name, value]) => `${name} ${value}`);
  const words = [parsed.pathname, ...query]
    .join(' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.some((w) => PAYMENT_URL_WORDS.has(w))) return true;
  return words.includes('order') && words.some((w) => ORDER_STEP_WORDS.has(w));
}

/** Why the agent may not take this action on this element, or null when it may. */
export function paymentRefusal(args: BrowserActionArgs, targetName: string | null): string | null {
  if (targetName && PAYMENT_CONTROL.test(targetName))
    return `I never pay or place orders: "${targetName}" is for you to press yourself.`;
  if (args.type === 'NAVIGATE' && args.url && isPaymentUrl(args.url))
    return 'I never open checkout or payment pages: that step is yours.';
  return null;
}
