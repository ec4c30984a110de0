// Prices as shop pages write them. A misread that comes out lower than the real price would pass
// the gateway's "not more than approved" check, so every spelling a shop uses must read right,
// and what cannot be read for sure must not be read at all.
import { describe, expect, it } from 'vitest';
import { readPagePrice } from '../src/domain/page-price.ts';

describe('a price as a shop page writes it', () => {
  it.each([
    ['$19.99', 19.99],
    ['19,99 €', 19.99],
    ['€1,299.00', 1299],
    ['1.299,00 €', 1299],
    // German pages group thousands with a dot and may leave the cents out.
    ['€1.299', 1299],
    ['Zwischensumme: 1.299 €', 1299],
    ['1,299', 1299],
    ["CHF 1'299.50", 1299.5],
    ['1 299,00 kr', 1299],
    ['1\u00a0299,00\u00a0€', 1299],
    ['1.299.000 ₩', 1299000],
    ['EUR 80.00', 80],
    ['80', 80],
    ['Subtotal (2 items): €39.98', 39.98],
    ['2 × 19,99 €', 19.99],
    ['￥１，２９９', 1299],
  ])('%s reads as %d', (text, amount) => {
    expect(readPagePrice(text)).toBe(amount);
  });

  it.each([
    ['an old and a new price', '€24.99 €19.99'],
    ['two figures, none beside a currency', 'Total 3 items 45'],
    ['mixed grouping', '1,299.000,00'],
    ['a stray separator', '1.29.9'],
    ['four decimals', '1.2345'],
    ['a price and its saving', 'Price: 19.99 (save 5.00 EUR)'],
    ['cents set apart', '€12 99'],
    ['a count right before the price', 'Qty 2 19,99 €'],
    ['a negative amount', '-€5.00'],
    ['a discount', 'Discount − 5,00 €'],
    ['no figure', 'Free'],
    ['superscript cents', '€12⁹⁹'],
    ['a fraction', '€12½'],
    ['another script’s digits', '€١٢٫٩٩'],
    ['another script’s digits beside ASCII ones', '12٩٩ €'],
  ])('%s is not read (%s)', (_what, text) => {
    expect(readPagePrice(text)).toBeNaN();
  });
});
