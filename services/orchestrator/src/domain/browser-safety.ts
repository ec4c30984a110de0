import type { BrowserActionArgs } from '@hs/contracts';

/**
 * The agent prepares, it never pays: a control whose name reads like paying or ordering, a
 * payment field, or a checkout/payment page is out of its reach (the user does that part).
 */
const PAYMENT_CONTROL =
  /\b(pay(ment)?( now)?|place (the |your )?order|submit order|complete (the )?(order|purchase)|confirm (the )?(order|purchase)|check ?out|buy now|card number|cvc|cvv|security code|expiry)\b/i;
const PAYMENT_PATH = /\/(checkout|payment|pay)(\/|$)/i;

/** Why the agent may not take this action on this element, or null when it may. */
export function paymentRefusal(args: BrowserActionArgs, targetName: string | null): string | null {
  if (targetName && PAYMENT_CONTROL.test(targetName))
    return `I never pay or place orders: "${targetName}" is for you to press yourself.`;
  if (args.type === 'NAVIGATE' && args.url && PAYMENT_PATH.test(new URL(args.url).pathname))
    return 'I never open checkout or payment pages: that step is yours.';
  return null;
}
