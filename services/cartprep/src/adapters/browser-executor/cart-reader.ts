// Reads the cart page back: lines, subtotal, currency and the checkout link, from the class
// names and data attributes common cart markup uses ("cart-item", "line-item", "*-price"...).
import { type Cart, roundToCurrency } from '@hs/contracts';
import type { Page, Response } from 'playwright-core';
import { readPagePrice } from '../../domain/page-price.ts';
import { stop } from './cart-stop.ts';

const CART_LINK = /^(cart|bag|basket|shopping (cart|bag)|view (cart|bag))(\s*\(\d+\))?$/i;
const SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY' };

/** Follows the cart link; resolves to the cart page's response, for the page checks. */
export async function openCart(page: Page): Promise<Response | null> {
  const link = page.getByRole('link', { name: CART_LINK }).first();
  if (!(await link.count())) stop('UNKNOWN_DOM', 'No cart or bag link was found');
  const href = await link.getAttribute('href');
  if (!href) stop('UNKNOWN_DOM', 'The cart link has no address');
  return page.goto(new URL(href!, page.url()).toString(), { waitUntil: 'domcontentloaded' });
}

type Raw = {
  items: Array<{ title: string; size: string; qty: string; price: string }>;
  subtotal: string;
  currency: string;
  checkout: string | null;
  text: string;
};

const READ = `(() => {
  const pick = (root, sel) => { const el = root.querySelector(sel); if (!el) return ''; return (el.value !== undefined && el.tagName === 'INPUT' ? el.value : el.textContent || '').trim(); };
  const rows = document.querySelectorAll('.cart-item, .line-item, [data-cart-item], [class*="cart-line"]');
  const items = Array.from(rows).map((r) => ({
    title: pick(r, '[class*="title"], [class*="name"]'),
    size: pick(r, '[class*="size"], [data-size]'),
    qty: pick(r, 'input[name*="qty" i], input[name*="quantity" i], [class*="qty"], [class*="quantity"]'),
    price: pick(r, '[class*="unit-price"], [class*="price"]'),
  }));
  const currencyEl = document.querySelector('[data-currency]');
  const checkout = Array.from(document.querySelectorAll('a[href]')).find((a) => /checkout/i.test(a.textContent || '') || /checkout/i.test(a.getAttribute('href') || ''));
  return { items, subtotal: pick(document, '[class*="subtotal"]'), currency: currencyEl ? currencyEl.getAttribute('data-currency') : '', checkout: checkout ? checkout.href : null, text: document.body.innerText.slice(0, 5000) };
})()`;

export async function readCart(page: Page, merchantDomain: string): Promise<Cart> {
  const raw = (await page.evaluate(READ)) as Raw;
  if (raw.items.length === 0) stop('UNKNOWN_DOM', 'The cart page shows no line items');
  const items = raw.items.map((i) => ({
    title: i.title,
    size: i.size || null,
    quantity: Number.parseInt(i.qty, 10),
    unitPrice: readPagePrice(i.price),
  }));
  if (items.some((i) => !i.title || !(i.quantity > 0) || Number.isNaN(i.unitPrice)))
    stop('UNKNOWN_DOM', 'The cart lines could not be read');
  const subtotal = raw.subtotal
    ? readPagePrice(raw.subtotal)
    : items.reduce((s, i) => s + i.unitPrice * i.quantity, 0);
  if (Number.isNaN(subtotal)) stop('UNKNOWN_DOM', 'The cart subtotal could not be read');
  const currency = (
    raw.currency ||
    /\b([A-Z]{3})\b/.exec(raw.subtotal)?.[1] ||
    Object.entries(SYMBOLS).find(([s]) => raw.text.includes(s))?.[1] ||
    ''
  ).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) stop('UNKNOWN_DOM', 'The cart currency could not be read');
  if (!raw.checkout) stop('UNKNOWN_DOM', 'The cart page has no checkout link');
  return {
    items,
    subtotal: roundToCurrency(subtotal, currency),
    currency,
    merchantDomain,
    checkoutUrl: raw.checkout!,
  };
}
