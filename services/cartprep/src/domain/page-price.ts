/**
 * The amount in a price as a shop page writes it, in any of the common spellings: `€1,299.00`,
 * `1.299,00 €`, `€1.299` (German: one thousand two hundred and ninety-nine), `CHF 1'299.50`,
 * `1 299,00 kr`, `19,99 €`, `Subtotal (2 items): $39.98`. NaN when it cannot be read for sure,
 * so the job stops instead of putting a wrong figure in front of the parent.
 *
 * A lone `.` or `,` followed by exactly three digits is read as a thousands separator: a cart
 * price is never written to three decimals in the two-decimal currencies shops use most, and
 * should it be (a three-decimal currency), the larger reading is refused by the gateway as more
 * than approved, never accepted as less.
 */
export function readPagePrice(pageText: string): number {
  // Superscript cents (`€12⁹⁹`), a fraction (`½`) or another script's digits are figures the
  // pattern below cannot see: reading the digits beside them would read the price low.
  // Full-width ones (`￥１，２９９`) read as their ASCII selves.
  if (/\p{No}/u.test(pageText)) return Number.NaN;
  const text = pageText.normalize('NFKC');
  if (/[^\P{N}0-9]/u.test(text)) return Number.NaN;
  const found = figureIn(text);
  if (found === null) return Number.NaN;
  const figure = found.replace(/['’\s\u00a0\u202f]/g, '');
  const lastDot = figure.lastIndexOf('.');
  const lastComma = figure.lastIndexOf(',');
  const decimalAt = decimalSeparatorAt(figure, lastDot, lastComma);
  const whole = decimalAt < 0 ? figure : figure.slice(0, decimalAt);
  const fraction = decimalAt < 0 ? '' : figure.slice(decimalAt + 1);
  if (!/^\d{1,3}([.,]\d{3})*$|^\d+$/.test(whole) || /[.,]/.test(fraction)) return Number.NaN;
  // The grouping must use one separator, the other one than the decimal's.
  const groups = whole.replace(/\d/g, '');
  if (new Set(groups).size > 1 || (decimalAt >= 0 && groups.includes(figure[decimalAt]!))) return Number.NaN;
  return Number(`${whole.replace(/[.,]/g, '')}${fraction ? `.${fraction}` : ''}`);
}

/** Where the decimal separator is, or -1 when the figure is a whole number. */
function decimalSeparatorAt(figure: string, lastDot: number, lastComma: number): number {
  // Both kinds: the last one separates the decimals (1,299.00 and 1.299,00).
  if (lastDot >= 0 && lastComma >= 0) return Math.max(lastDot, lastComma);
  const at = Math.max(lastDot, lastComma);
  if (at < 0) return -1;
  const separator = figure[at]!;
  // The same separator twice (1.299.000) groups thousands.
  if (figure.indexOf(separator) !== at) return -1;
  // Once: decimals after it when one or two digits follow, else thousands (see above).
  return figure.length - at - 1 <= 2 ? at : -1;
}

// Digits, joined by `.`/`,`, or by a space or apostrophe only before a group of three ("Qty 2
// 19,99" is two figures, "1 299,00" one).
const FIGURE = /\d+(?:[.,]\d+|['’ \u00a0\u202f]\d{3}(?!\d))*/g;
const CURRENCY_BEFORE = /(?:[€$£¥₹₩]|\b[A-Z]{3}|\bkr\.?)\s*$/;
const CURRENCY_AFTER = /^\s*(?:[€$£¥₹₩]|[A-Z]{3}\b|kr\b)/;

/** A figure written as money: with decimals ("5.00"), or beside a currency. */
const isMoneyLike = (text: string, m: RegExpMatchArray) => {
  const at = m.index ?? 0;
  return (
    /[.,]\d{1,2}$/.test(m[0]) ||
    CURRENCY_BEFORE.test(text.slice(0, at)) ||
    CURRENCY_AFTER.test(text.slice(at + m[0].length))
  );
};

/** Only spaces and currency marks between two figures: one price split in two ("€12 99"). */
const SPLIT_FIGURE = /^[\s\u00a0\u202f€$£¥₹₩]*$/;

/**
 * The one figure of a price: the only one, or the only money-like one among counts ("Subtotal
 * (2 items): €39.98"). Null when that is a guess: two prices (an old and a new one, a price and
 * its saving), a figure split by a space (cents set apart: "€12 99"), a negative amount, or no
 * figure written as money among several.
 */
function figureIn(text: string): string | null {
  const figures = [...text.matchAll(FIGURE)];
  if (figures.length === 0) return null;
  const money = figures.length === 1 ? figures : figures.filter((m) => isMoneyLike(text, m));
  if (money.length !== 1) return null;
  const chosen = money[0]!;
  const at = chosen.index ?? 0;
  // A minus before it (or before its currency): a discount or a refund, never a price to charge.
  if (/[-−–]\s*(?:[€$£¥₹₩]|[A-Z]{3})?\s*$/.test(text.slice(0, at))) return null;
  for (const other of figures) {
    if (other === chosen) continue;
    const start = other.index ?? 0;
    const between =
      start < at ? text.slice(start + other[0].length, at) : text.slice(at + chosen[0].length, start);
    if (SPLIT_FIGURE.test(between)) return null;
  }
  return chosen[0];
}
