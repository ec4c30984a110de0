// The demo merchant's HTML: two product layouts, a cart, and the pages a real shop throws at a
// cart-preparation agent (cookie banner, blocking modal, sold-out size, login wall, bot
// challenge, payment form). Plain server-rendered markup, the way common shops write it.

export type DemoProduct = { slug: string; title: string; price: number; sizes: string[]; soldOut: string[] };

export const PRODUCTS: Record<string, DemoProduct> = {
  'classic-tee': {
    slug: 'classic-tee',
    title: 'Classic Tee',
    price: 19.9,
    sizes: ['S', 'M', 'L'],
    soldOut: ['L'],
  },
  'linen-shirt': {
    slug: 'linen-shirt',
    title: 'Linen Shirt',
    price: 49,
    sizes: ['S', 'M', 'L', 'XL'],
    soldOut: ['XL'],
  },
};

export const CURRENCY = 'EUR';

const esc = (v: string) => v.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function layout(title: string, body: string, extraHead = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;margin:2rem} .overlay{position:fixed;inset:0;background:rgba(0,0,0,.6);z-index:10;display:flex;align-items:center;justify-content:center} .overlay>div{background:#fff;padding:2rem}</style>
${extraHead}</head><body><header><a href="/" class="logo">Demo Shop</a> <a href="/cart" class="cart-link">Cart</a></header>${body}</body></html>`;
}

const jsonLd = (p: DemoProduct) =>
  `<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.title,
    offers: { '@type': 'Offer', price: p.price.toFixed(2), priceCurrency: CURRENCY },
  })}</script>`;

const cookieBanner = `<div id="cookie-banner" class="overlay" role="dialog" aria-label="Cookie consent"><div>
<p>We use cookies to improve your experience.</p><button type="button" onclick="document.getElementById('cookie-banner').remove()">Accept all</button>
<button type="button">Settings</button></div></div>`;

/** Layout A: schema.org JSON-LD, a size <select>, a quantity field, a form POST, a cookie banner. */
export function productA(p: DemoProduct, options: { banner: boolean; action?: string }): string {
  const sizes = p.sizes
    .map((s) => {
      const out = p.soldOut.includes(s);
      return `<option value="${s}"${out ? ' disabled' : ''}>${s}${out ? ' - sold out' : ''}</option>`;
    })
    .join('');
  return layout(
    p.title,
    `<main><h1 class="product-title">${esc(p.title)}</h1><p class="price">€${p.price.toFixed(2)}</p>
<form method="post" action="${options.action ?? '/cart/add'}"><input type="hidden" name="product" value="${p.slug}">
<label for="size">Size</label> <select id="size" name="size"><option value="">Choose a size</option>${sizes}</select>
<label for="qty">Quantity</label> <input id="qty" name="quantity" type="number" min="1" max="10" value="1">
<button type="submit" class="add">Add to cart</button></form></main>${options.banner ? cookieBanner : ''}`,
    jsonLd(p),
  );
}

/** Layout B: microdata, size buttons (a radio group), a quantity <select>, "Add to bag" by fetch. */
export function productB(p: DemoProduct): string {
  const sizes = p.sizes
    .map((s) => {
      const out = p.soldOut.includes(s);
      return `<label class="size-option"><input type="radio" name="size" value="${s}"${out ? ' disabled' : ''}> ${s}${out ? ' (out of stock)' : ''}</label>`;
    })
    .join(' ');
  const qty = Array.from({ length: 5 }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join('');
  return layout(
    p.title,
    `<main itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">${esc(p.title)}</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="priceCurrency" content="${CURRENCY}">€</span><span itemprop="price" content="${p.price.toFixed(2)}">${p.price.toFixed(2)}</span></div>
<fieldset><legend>Select size</legend>${sizes}</fieldset>
<label>Qty <select name="qty" aria-label="Quantity">${qty}</select></label>
<button type="button" id="bag">Add to bag</button> <span id="status" role="status"></span></main>
<script>
document.getElementById('bag').addEventListener('click', async () => {
  const size = document.querySelector('input[name=size]:checked');
  if (!size) { document.getElementById('status').textContent = 'Please select a size'; return; }
  const body = new URLSearchParams({ product: ${JSON.stringify(p.slug)}, size: size.value, quantity: document.querySelector('select[name=qty]').value });
  const r = await fetch('/cart/add', { method: 'POST', body, headers: { accept: 'application/json' } });
  document.getElementById('status').textContent = r.ok ? 'Added to bag' : 'Could not add';
});
</script>`,
  ).replace('class="cart-link">Cart', 'class="cart-link">Bag');
}

export type CartLine = { slug: string; size: string; quantity: number };

export function cartPage(lines: CartLine[]): string {
  let subtotal = 0;
  const rows = lines
    .map((l) => {
      const p = PRODUCTS[l.slug]!;
      subtotal += p.price * l.quantity;
      return `<tr class="cart-item"><td class="item-title">${esc(p.title)}</td><td class="item-size">${esc(l.size)}</td><td class="item-qty">${l.quantity}</td><td class="item-price">${p.price.toFixed(2)}</td></tr>`;
    })
    .join('');
  return layout(
    'Your cart',
    `<main><h1>Your cart</h1><table id="cart" data-currency="${CURRENCY}"><thead><tr><th>Item</th><th>Size</th><th>Quantity</th><th>Price</th></tr></thead><tbody>${rows}</tbody></table>
<p>Subtotal: <span class="cart-subtotal">${subtotal.toFixed(2)}</span> ${CURRENCY}</p><a href="/checkout" id="checkout">Proceed to checkout</a></main>`,
  );
}

export const modalPage = (p: DemoProduct) =>
  productA(p, { banner: false }).replace(
    '</body>',
    `<div class="overlay" id="newsletter"><div><h2>Join our club</h2><p>Sign up to continue shopping.</p><input type="email" placeholder="Email"></div></div></body>`,
  );

export const loginPage = layout(
  'Sign in',
  `<main><h1>Sign in to continue</h1><form method="post" action="/login"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><button>Sign in</button></form></main>`,
);

export const challengePage = layout(
  'Just a moment...',
  `<main><h1>Checking your browser before accessing the shop</h1><p>Please complete the captcha to prove you are human.</p><div class="g-recaptcha"></div></main>`,
);

export const plainPage = layout(
  'About us',
  '<main><h1>About the Demo Shop</h1><p>We sell clothes.</p></main>',
);

export const paymentPage = layout(
  'Payment',
  `<main><h1>Payment details</h1><form><label>Card number <input name="cardnumber" autocomplete="cc-number"></label><label>CVC <input name="cvc" autocomplete="cc-csc"></label><button>Place order</button></form></main>`,
);
