// What a page is, judged from what any shop shows rather than one site's markup.
import { BLOCKED_HEADER } from '@hs/browser';
import type { Page, Response } from 'playwright-core';
import { sameMerchant } from '../../domain/same-merchant.ts';
import { stop } from './cart-stop.ts';

const BOT_WALL =
  /captcha|checking your browser|verify (that )?you are (a )?human|are you a robot|unusual traffic|access denied|just a moment/i;
const PAYMENT_FIELDS =
  'input[autocomplete^="cc-"], input[name*="cardnumber" i], input[name*="card_number" i], input[name="cvc" i], input[name="cvv" i], iframe[src*="payment" i]';
const PAYMENT_PATH = /\/(checkout|payment|pay|order)(\/|$|\?)/i;
/** Some shops (Magento) keep the cart itself under /checkout: a cart, not a checkout step. */
const CART_UNDER_CHECKOUT = /\/checkout\/cart(\/|$)/i;

/** The response the guard refused, or a redirect to another merchant: DOMAIN_NOT_ALLOWED. */
export function checkDestination(
  page: Page,
  response: Response | null,
  merchantHost: string,
  allow: (host: string) => boolean,
) {
  const blocked = response?.headers()[BLOCKED_HEADER];
  if (blocked) stop('DOMAIN_NOT_ALLOWED', `The browser was refused ${hostOf(page.url())}: ${blocked}`);
  const host = hostOf(page.url());
  if (host && !sameMerchant(host, merchantHost) && !allow(host))
    stop('DOMAIN_NOT_ALLOWED', `The page moved to ${host}, which is not the merchant's domain`);
}

/**
 * The cart page read back: only what a shopper would see counts there. Carts carry hidden sign-in
 * dropdowns (with their captcha), express-pay buttons (an iframe from the payment provider, no
 * card fields) and live under many paths (`/order/cart`, `/checkout/basket`): a payment form
 * actually shown is the one thing that stops the job, as a login wall does.
 */
export async function checkCartPage(page: Page, response: Response | null): Promise<void> {
  if ((await page.locator(VISIBLE_CARD_FIELDS).count()) > 0)
    stop('SAFETY_VIOLATION', 'The site led to a payment form; card details are never entered');
  if ((await page.locator('input[type="password"]:visible').count()) > 0)
    stop('LOGIN_REQUIRED', 'The site asks to sign in before showing the cart');
  const status = response?.status() ?? 200;
  if (status >= 500) stop('INTERNAL_ERROR', `The merchant page answered HTTP ${status}`);
}
const VISIBLE_CARD_FIELDS = PAYMENT_FIELDS.split(', ')
  .filter((selector) => selector.startsWith('input'))
  .map((selector) => `${selector}:visible`)
  .join(', ');

/** Bot walls, login walls, payment steps and broken pages, in that order. */
export async function checkPage(page: Page, response: Response | null): Promise<void> {
  const title = await page.title();
  const heading = await page
    .locator('h1')
    .first()
    .textContent({ timeout: 1000 })
    .catch(() => '');
  const text = `${title} ${heading ?? ''}`;
  if (
    BOT_WALL.test(text) ||
    (await page.locator('.g-recaptcha, .h-captcha, iframe[src*="captcha"], #challenge-form').count()) > 0
  )
    stop('BLOCKED_BOT_DETECTED', `The site showed a bot check ("${title}")`);
  if (await page.locator(PAYMENT_FIELDS).count())
    stop('SAFETY_VIOLATION', 'The site led to a payment form; card details are never entered');
  const path = new URL(page.url()).pathname;
  if (PAYMENT_PATH.test(path) && !CART_UNDER_CHECKOUT.test(path))
    stop('SAFETY_VIOLATION', 'The site led to its checkout; orders are never placed');
  if ((await page.locator('input[type="password"]:visible').count()) > 0)
    stop('LOGIN_REQUIRED', 'The site asks to sign in before adding to the cart');
  const status = response?.status() ?? 200;
  if (status >= 500) stop('INTERNAL_ERROR', `The merchant page answered HTTP ${status}`);
  if (status === 404 || status === 410) stop('UNKNOWN_DOM', `The merchant page answered HTTP ${status}`);
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
