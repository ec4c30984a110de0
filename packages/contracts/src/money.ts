import type { z } from 'zod';

/**
 * ISO 4217 minor units where they are not 2 (the standard's own table, not the runtime's display
 * rules: ICU shows HUF, IDR or PKR without decimals, yet their amounts have two).
 */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** How many decimals a currency's amounts have (EUR 2, JPY 0, BHD 3), as ISO 4217 says; 2 when it has no entry. */
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code the runtime knows (Intl.supportedValuesOf('currency')): not XXX, not ZZZ. */
export const isKnownCurrency = (code: string): boolean => KNOWN_CURRENCIES.has(code);

export const currencyDecimals = (currency: string): number => MINOR_UNITS[currency] ?? 2;

/** `amount` rounded to the currency's smallest unit (a total of 3 × 19.99 is 59.97, not 59.970000000000006). */
export function roundToCurrency(amount: number, currency: string): number {
  const scale = 10 ** currencyDecimals(currency);
  return Math.round(amount * scale) / scale;
}

/** `amount` as people read it in messages: "80.00 EUR", "1200 JPY", "1.250 BHD". */
export const formatMoney = (amount: number, currency: string): string =>
  `${amount.toFixed(currencyDecimals(currency))} ${currency}`;

/**
 * Whether `amount` is a whole number of the currency's smallest unit. Binary noise from an app's
 * arithmetic (19.990000000000002) passes; a third decimal of euros or a half yen does not, since
 * a total rounded from it could pass a spending limit by a fraction nobody approved.
 */
export function fitsCurrency(amount: number, currency: string): boolean {
  const scaled = amount * 10 ** currencyDecimals(currency);
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/**
 * A refinement for a body with amounts in one currency: each named amount present must fit the
 * currency (a 422 on that field otherwise). An unknown currency is left to its own check.
 */
export function amountsFitCurrency<T extends { currency: string }>(...fields: (keyof T & string)[]) {
  return (body: T, ctx: z.RefinementCtx): void => {
    for (const field of fields) {
      const amount = body[field];
      if (typeof amount !== 'number' || fitsCurrency(amount, body.currency)) continue;
      const decimals = currencyDecimals(body.currency);
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `${body.currency} amounts have ${decimals === 0 ? 'no decimals' : `at most ${decimals} decimals`}`,
      });
    }
  };
}
