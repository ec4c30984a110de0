// The agent never pays or places orders: whatever a shop calls its order button, in whatever
// language, and wherever its checkout lives, the agent leaves that step to the user.
import { describe, expect, it } from 'vitest';
import { paymentRefusal } from '../src/domain/browser-safety.ts';

const click = (name: string) => paymentRefusal({ sessionId: 'bs_1', type: 'CLICK', selector: '#b' }, name);
const open = (url: string) => paymentRefusal({ sessionId: 'bs_1', type: 'NAVIGATE', url }, null);

describe('controls the agent never presses', () => {
  it.each([
    'Pay now',
    'Place my order',
    'Order now',
    'Buy',
    'Buy with 1-Click',
    'Purchase',
    'Complete purchase',
    'Proceed to checkout',
    'Jetzt kaufen',
    'Zahlungspflichtig bestellen',
    'Zur Kasse',
    'Commander',
    'Valider ma commande',
    'Comprar ahora',
    'Realizar pedido',
    'Acquista ora',
    'Afrekenen',
    'Card number',
    'Bestellung absenden',
    'Confirmer la commande',
    'Envoyer la commande',
    'Weiter zur Zahlung',
    'Finalizar compra',
    'Conferma l’ordine',
    // Names a page writes to slip past: a soft hyphen, a zero-width space, a Cyrillic а.
    'Pl\u00ADace order',
    'B\u200Buy now',
    'P\u0430y now',
    'Buy\u200Bnow',
    'Pay\u2060now',
    'Pa\u034Fy now',
    'Bu\uFE0Fy now',
    'B\u0578y now',
    'Ordina',
    'Invia ordine',
  ])('%s', (name) => {
    expect(click(name)).toBe(`I never pay or place orders: "${name}" is for you to press yourself.`);
  });

  it.each([
    'Add to bag',
    'Add to cart',
    'In den Warenkorb',
    'Ajouter au panier',
    'Size guide',
    'Order summary',
    'Accept cookies',
  ])('but presses %s', (name) => {
    expect(click(name)).toBeNull();
  });
});

describe('pages the agent never opens', () => {
  it.each([
    'https://shop.example.com/checkout',
    'https://shop.example.com/checkouts/cn/abc123',
    'https://shop.example.com/checkout.html',
    'https://shop.example.com/order/confirm',
    'https://shop.example.com/purchase',
    'https://shop.example.com/kasse',
    'https://shop.example.com/cart?step=payment',
    'https://shop.example.com/checkout/onepage/',
    'https://shop.example.com/#/checkout',
    'https://shop.example.com/check%6Fut',
    'https://shop.example.com/onestepcheckout/',
    'https://shop.example.com/commander/',
    'https://shop.example.com/finalizar-compra/',
    'https://shop.example.com/cassa/',
    'https://shop.example.com/index.php?cl=order',
    'https://checkout.shop.example.com/cart/1',
    'https://pay.shop.example.com/',
    'https://www.paypal.com/checkoutnow?token=x',
    'https://shop.example.com/paynow',
    'https://shop.example.com/quickpay/start',
  ])('%s', (url) => {
    expect(open(url)).toBe('I never open checkout or payment pages: that step is yours.');
  });

  it.each([
    'https://shop.example.com/cart',
    'https://shop.example.com/p/linen-shirt',
    'https://shop.example.com/account/orders',
    'https://shop.example.com/search?q=payment+plans+shirt',
    'https://www.paymentshop.com/p/shirt',
    'https://www.paymentshop.co.uk/p/shirt',
    'https://shop.example.com/display/shirts',
  ])('but opens %s', (url) => {
    expect(open(url)).toBeNull();
  });
});

describe('pages the agent never acts on', () => {
  it('refuses a click or typing on a checkout page it reached by clicking on', () => {
    const on = (type: 'CLICK' | 'TYPE', pageUrl: string) =>
      paymentRefusal({ sessionId: 'bs_1', type, selector: '#b' }, 'Continue', pageUrl);
    expect(on('CLICK', 'https://shop.example.com/checkout/shipping')).toBe(
      'I never act on checkout or payment pages: that step is yours.',
    );
    expect(on('TYPE', 'https://shop.example.com/payment')).toBe(
      'I never act on checkout or payment pages: that step is yours.',
    );
    expect(on('CLICK', 'https://shop.example.com/cart')).toBeNull();
  });
});
