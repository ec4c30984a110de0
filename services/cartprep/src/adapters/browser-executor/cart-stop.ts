import type { CartprepFailureCode } from '@hs/contracts';

/** A classified reason to stop a cart preparation: what the page did, in the spec's codes. */
export class CartStop extends Error {
  readonly code: CartprepFailureCode;
  constructor(code: CartprepFailureCode, reason: string) {
    super(reason);
    this.name = 'CartStop';
    this.code = code;
  }
}

export const stop = (code: CartprepFailureCode, reason: string): never => {
  throw new CartStop(code, reason);
};
