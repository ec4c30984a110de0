import type { BrowserActionArgs } from '@hs/contracts';

/**
 * The agent prepares, it never pays: a control whose name reads like paying or ordering, a
 * payment field, or a checkout/payment page (opened, or acted on) is out of its reach (the user
 * does that part). Shops are in many languages and name their buttons freely, and a page writes
 * the names the agent reads, so names are normalised first and the words are broad: a refusal
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
    'purchase(?! history)',
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
    'bestellung',
    'zahlung',
    'zur kasse',
    'kasse',
    'commander',
    'commande',
    'payer',
    'acheter',
    'paiement',
    'comprar',
    'compra',
    'pagar',
    'pagamento',
    'realizar (el )?pedido',
    'finalizar',
    'acquista',
    'paga',
    'ordina(?!\\s+per\\b)',
    'invia (l.)?ordine',
    'conferma (l.)?ordine',
    'cassa',
    'afrekenen',
    'betalen',
    'kopen',
  ]
    .map((words) => `\\b${words}\\b`)
    .join('|'),
  'i',
);

/** Letters of other scripts that read as Latin ones ("Pаy now" with a Cyrillic а). */
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  ո: 'u',
  ս: 'u',
  օ: 'o',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  υ: 'u',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Χ: 'X',
};

/**
 * A control's name as read, in the two ways a page could hide a word: invisible characters
 * dropped ("Pl\u00ADace order") and read as a space ("Buy\u200Bnow"); compatibility forms folded,
 * combining marks gone, look-alike letters Latin.
 */
export function readableNames(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u0370-\u052f\u0530-\u058f]/g, (c) => LOOKALIKES[c] ?? c);
  return [folded.replace(/[\p{Cf}\u00ad]/gu, ''), folded.replace(/[\p{Cf}\u00ad]/gu, ' ')];
}

/** A word of Latin letters with Cyrillic, Greek or Armenian ones in it: a name dressed up to pass. */
const mixesScripts = (name: string) =>
  name
    .split(/\s+/)
    .some(
      (word) =>
        /\p{Script=Latin}/u.test(word) &&
        /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u.test(word),
    );

/** Words of a URL that name a checkout or payment step, alone or within a longer word. */
const PAYMENT_URL_STEMS = [
  'checkout',
  'payment',
  'paiement',
  'pagamento',
  'bezahl',
  'zahlung',
  'afrekenen',
  'betalen',
  'placeorder',
];
/** Words of a URL that name such a step only as a whole word (`pay`, not `display`). */
const PAYMENT_URL_WORDS = new Set([
  'pay',
  'paypal',
  'billing',
  'purchase',
  'kasse',
  'cassa',
  'pago',
  'commander',
  'compra',
  'finalizar',
  'bestellen',
  'bestellung',
]);
/** An order page that places or confirms it (`/order/confirm`), not the order history. */
const ORDER_STEP_WORDS = new Set(['confirm', 'confirmation', 'place', 'submit', 'review', 'complete']);
/** Payment providers' own sites: paying happens there, whatever the path. */
const PAYMENT_PROVIDERS = [
  'paypal.com',
  'klarna.com',
  'afterpay.com',
  'affirm.com',
  'clearpay.co.uk',
  'stripe.com',
];

/**
 * A checkout or payment host: a provider's site, or a shop's subdomain named for that step
 * (`checkout.shop.com`, `pay.shop.com`). The shop's own name is not read (`paymentshop.com` may
 * be a shop), only the labels in front of it.
 */
function isPaymentHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (PAYMENT_PROVIDERS.some((p) => host === p || host.endsWith(`.${p}`))) return true;
  const labels = host.split('.');
  // The shop's own name: two labels, three under a country's second level (`shop.co.uk`).
  const secondLevel = labels.length > 2 && /^(co|com|org|net|gov|ac|ne|or)$/.test(labels.at(-2) ?? '');
  const subdomains = labels.slice(0, secondLevel && (labels.at(-1) ?? '').length === 2 ? -3 : -2);
  return subdomains.some(
    (label) =>
      PAYMENT_URL_WORDS.has(label) ||
      PAYMENT_URL_STEMS.some((stem) => label.includes(stem)) ||
      label === 'secure-checkout' ||
      label.endsWith('pay'),
  );
}

/** Query parameters that carry what the shopper typed (`?q=payment plans`), not a step. */
const SEARCH_TEXT_PARAMS = new Set(['q', 'query', 'search', 's', 'k', 'keyword', 'keywords', 'term']);

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** Whether the address is a checkout or payment step: its path, its fragment (`#/checkout`), its query. */
export function isPaymentUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (isPaymentHost(parsed.hostname)) return true;
  const query = [...parsed.searchParams].filter(([name]) => !SEARCH_TEXT_PARAMS.has(name.toLowerCase()));
  // A step named by a parameter (`?cl=order`, `?step=payment`).
  if (query.some(([, value]) => /^(order|payment|checkout)$/i.test(value))) return true;
  const text = [decoded(parsed.pathname), decoded(parsed.hash), ...query.map(([n, v]) => `${n} ${v}`)]
    .join(' ')
    .toLowerCase();
  const words = text.split(/[^a-z0-9]+/).filter(Boolean);
  if (words.some((w) => PAYMENT_URL_WORDS.has(w) || PAYMENT_URL_STEMS.some((stem) => w.includes(stem))))
    return true;
  // `/paynow`, `/quickpay`, `/applepay`: paying, joined to another word.
  if (words.some((w) => w.endsWith('pay') || /^pay(now|online|later|by|in)/.test(w))) return true;
  return words.includes('order') && words.some((w) => ORDER_STEP_WORDS.has(w));
}

/**
 * Why the agent may not take this action, or null when it may: on an element named like paying
 * or ordering, towards a checkout page, or on one (`pageUrl`, where a CLICK or TYPE happens).
 */
export function paymentRefusal(
  args: BrowserActionArgs,
  targetName: string | null,
  pageUrl: string | null = null,
): string | null {
  if (
    targetName &&
    (readableNames(targetName).some((name) => PAYMENT_CONTROL.test(name)) || mixesScripts(targetName))
  )
    return `I never pay or place orders: "${targetName}" is for you to press yourself.`;
  if (args.type === 'NAVIGATE' && args.url && isPaymentUrl(args.url))
    return 'I never open checkout or payment pages: that step is yours.';
  if ((args.type === 'CLICK' || args.type === 'TYPE') && pageUrl && isPaymentUrl(pageUrl))
    return 'I never act on checkout or payment pages: that step is yours.';
  return null;
}
