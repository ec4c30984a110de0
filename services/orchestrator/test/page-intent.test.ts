import { describe, expect, it } from 'vitest';
import { matchElement, pageIntent } from '../src/domain/page-intent.ts';

const page = {
  url: 'https://shop.example/p/1',
  heading: 'Linen Shirt',
  elements: [
    { selector: 'h1', role: 'heading', name: 'Linen Shirt' },
    { selector: 'a.cart', role: 'link', name: 'Bag' },
    { selector: '#m', role: 'radio', name: 'M' },
    { selector: '#l', role: 'radio', name: 'L (out of stock)' },
    { selector: '#size', role: 'combobox', name: 'Size' },
    { selector: '#bag', role: 'button', name: 'Add to bag' },
  ],
};
const pick = (text: string) => {
  const intent = pageIntent(text);
  return intent && { ...intent, selector: matchElement(page, intent)?.selector ?? null };
};

describe('the stub agent reads what to do on the page from the user’s words', () => {
  it.each([
    ['click add to bag', { kind: 'CLICK', target: 'add to bag', selector: '#bag' }],
    ['click size M', { kind: 'CLICK', target: 'size M', selector: '#m' }],
    ['press the "Bag" button', { kind: 'CLICK', target: 'Bag', selector: 'a.cart' }],
    ['type M in size', { kind: 'TYPE', text: 'M', target: 'size', selector: '#size' }],
    ['select L from the size menu', { kind: 'TYPE', text: 'L', target: 'size', selector: '#size' }],
    ['click the checkout', { kind: 'CLICK', target: 'checkout', selector: null }],
  ])('%s', (text, expected) => expect(pick(text)).toEqual(expected));

  it('finds nothing to do in a plain question', () => expect(pageIntent('what is on the page?')).toBeNull());

  it('never picks a heading to click', () =>
    expect(matchElement(page, { kind: 'CLICK', target: 'linen shirt' })).toBeNull());
});
