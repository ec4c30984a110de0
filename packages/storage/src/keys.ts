/**
 * Object keys are relative, slash-separated paths of URL-safe segments
 * (`households/h_1/items/item_1/img_1`): no empty segments and none starting with a dot, so a key can never
 * escape the local directory or need escaping in a signed URL.
 */
// No segment starts with a dot: `.meta/` and `.tmp/` under the local directory are the backend's own.
const SEGMENT = /^[A-Za-z0-9_=-][A-Za-z0-9_.=-]{0,199}$/;

export function isValidKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) return false;
  return key.split('/').every((s) => SEGMENT.test(s));
}

export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`Invalid object key ${JSON.stringify(key)}`);
    this.name = 'InvalidKeyError';
  }
}

export function assertKey(key: string): string {
  if (!isValidKey(key)) throw new InvalidKeyError(key);
  return key;
}
