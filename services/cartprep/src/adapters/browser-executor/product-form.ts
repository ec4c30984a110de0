// The product form as common shops write it: a size control labelled "size" (a <select> or a
// group of radio buttons), a quantity field, and a button named like "Add to cart/bag/basket".
import type { Locator, Page } from 'playwright-core';
import { stop } from './cart-stop.ts';

const CONSENT =
  /^(accept( all)?( cookies)?|allow( all)?|agree|i agree|ok|got it|close|dismiss|no,? thanks|continue|×|x)$/i;
const ADD = /add to (cart|bag|basket)|^add$/i;
const UNAVAILABLE = /sold out|out of stock|unavailable|not available/i;

/** Clicks the consent and close buttons of dialogs it recognises; true when it closed something. */
export async function dismissOverlays(page: Page): Promise<void> {
  const dialogs = page.locator(
    '[role="dialog"], [aria-modal="true"], [class*="cookie" i], [id*="cookie" i], [class*="modal" i], [class*="overlay" i]',
  );
  for (const dialog of await dialogs.all()) {
    if (!(await dialog.isVisible().catch(() => false))) continue;
    const button = dialog.getByRole('button', { name: CONSENT }).first();
    if (await button.isVisible().catch(() => false)) await button.click({ timeout: 2000 }).catch(() => {});
  }
}

export async function findAddButton(page: Page): Promise<Locator> {
  const button = page.getByRole('button', { name: ADD }).first();
  if (!(await button.count())) stop('UNKNOWN_DOM', 'No "Add to cart" button was found on the page');
  return button;
}

const optionLabel = (text: string) =>
  text
    .split(/\s+[-–(]/)[0]!
    .trim()
    .toLowerCase();

export async function chooseSize(page: Page, size: string): Promise<void> {
  const wanted = size.trim().toLowerCase();
  const select = page.getByLabel(/size/i).and(page.locator('select')).first();
  if (await select.count()) {
    const options = await select.locator('option').evaluateAll((els) =>
      els.map((o) => ({
        value: (o as unknown as { value: string }).value,
        text: o.textContent ?? '',
        disabled: o.hasAttribute('disabled'),
      })),
    );
    const option = options.find((o) => optionLabel(o.text) === wanted || o.value.toLowerCase() === wanted);
    if (!option) stop('SIZE_UNAVAILABLE', `Size ${size} is not offered`);
    if (option!.disabled || UNAVAILABLE.test(option!.text))
      stop('SIZE_UNAVAILABLE', `Size ${size} is sold out`);
    await select.selectOption(option!.value);
    return;
  }
  const radios = page.getByRole('radio');
  for (const radio of await radios.all()) {
    const label =
      (await radio.evaluate(
        (el) => el.closest('label')?.textContent ?? el.getAttribute('aria-label') ?? '',
      )) || '';
    if (optionLabel(label) !== wanted && (await radio.getAttribute('value'))?.toLowerCase() !== wanted)
      continue;
    if ((await radio.isDisabled()) || UNAVAILABLE.test(label))
      stop('SIZE_UNAVAILABLE', `Size ${size} is sold out`);
    await radio.check();
    return;
  }
  stop('SIZE_UNAVAILABLE', `Size ${size} is not offered on the page`);
}

export async function setQuantity(page: Page, quantity: number): Promise<void> {
  const field = page.getByLabel(/quantity|qty/i).first();
  if (!(await field.count())) {
    if (quantity > 1) stop('UNKNOWN_DOM', 'No quantity field was found for a quantity above 1');
    return;
  }
  const tag = await field.evaluate((el) => el.tagName.toLowerCase());
  if (tag === 'select') {
    const picked = await field.selectOption(String(quantity)).catch(() => []);
    if (picked.length === 0) stop('UNKNOWN_DOM', `The quantity list does not offer ${quantity}`);
  } else await field.fill(String(quantity));
}

/** The button must be the element a click at its centre reaches; otherwise something covers it. */
export async function assertNotCovered(button: Locator): Promise<void> {
  await button.scrollIntoViewIfNeeded({ timeout: 2000 }).catch(() => {});
  const reachable = await button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });
  if (!reachable) stop('POPUP_OVERLAY_UNRESOLVED', 'An overlay covers the page and could not be closed');
}
