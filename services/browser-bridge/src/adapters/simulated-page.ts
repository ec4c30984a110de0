// The page a simulated browser "shows": plausible, deterministic elements derived from the URL
// alone, so the agent and the app can be exercised end to end without a browser.
import type { BrowserPageElement } from '@hs/contracts';

const el = (
  selector: string,
  role: string,
  name: string,
  href: string | null = null,
): BrowserPageElement => ({
  selector,
  role,
  name,
  href,
});

export function simulatedElements(url: string): BrowserPageElement[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return [];
  const origin = parsed.origin;
  const path = parsed.pathname.toLowerCase();
  const common = [
    el('header a.logo', 'link', parsed.hostname, `${origin}/`),
    el('input[name="q"]', 'searchbox', 'Search'),
    el('button[type="submit"].search', 'button', 'Search'),
    el('a.cart-link', 'link', 'Cart', `${origin}/cart`),
  ];
  if (path.includes('cart') || path.includes('checkout'))
    return [
      ...common,
      el('.cart-item:nth-of-type(1) .quantity', 'spinbutton', 'Quantity'),
      el('button.remove-item', 'button', 'Remove item'),
      el('button#checkout', 'button', 'Proceed to checkout', `${origin}/checkout`),
    ];
  if (path.includes('product') || /\/p\/|\/item/.test(path))
    return [
      ...common,
      el('h1.product-title', 'heading', 'Product'),
      el('select#size', 'combobox', 'Size'),
      el('button#add-to-cart', 'button', 'Add to cart'),
    ];
  if (parsed.searchParams.has('q') || path.includes('search'))
    return [
      ...common,
      el('.results a.product:nth-of-type(1)', 'link', 'Result 1', `${origin}/product/1`),
      el('.results a.product:nth-of-type(2)', 'link', 'Result 2', `${origin}/product/2`),
      el('select#sort', 'combobox', 'Sort by'),
    ];
  return [
    ...common,
    el('nav a.women', 'link', 'Women', `${origin}/women`),
    el('nav a.men', 'link', 'Men', `${origin}/men`),
    el('nav a.kids', 'link', 'Kids', `${origin}/kids`),
  ];
}
