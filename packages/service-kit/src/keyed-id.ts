import { createHash } from 'node:crypto';

/** What a peer accepts as an Idempotency-Key (the gateway checks its own, stricter form first). */
const MAX_KEY_LENGTH = 255;

/** The request's Idempotency-Key (the gateway passes the client's on), or null without one. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const key = headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH ? key : null;
}

/**
 * The id of a thing created under an Idempotency-Key: the same scope (household, caller, kind of
 * thing), key and body always name the same thing. The gateway keeps a create's answer only once
 * this service has given one; when the create was saved here but its answer never reached the
 * gateway (the process was killed, or answered after the gateway gave up with 504), the client's
 * retry with the same key arrives here again and finds what it made instead of making a second.
 */
export function keyedId(prefix: string, key: string, scope: readonly unknown[], body: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([...scope, key, body]))
    .digest('base64url');
  return `${prefix}_k${digest.slice(0, 22)}`;
}
