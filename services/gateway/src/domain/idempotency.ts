import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError, validationError } from '@hs/service-kit';

/**
 * Idempotency-Key semantics (IETF draft "The Idempotency-Key HTTP Header Field"): a key is
 * scoped to one user and one route path. Same key and same body → the stored response is
 * replayed; same key, other body → 422; a retry while the first is still running → 409.
 * Only successful responses are stored: a failed attempt had no effect, so its key is released
 * and a retry runs again (a 502 from a peer that was down must be retryable).
 */
export type IdempotencyRecord = {
  /** The record's own store id (a hash of scope and key), so expired records can be purged. */
  id?: string;
  scope: string;
  fingerprint: string;
  state: 'RUNNING' | 'DONE';
  /** Which attempt holds a RUNNING record, so only it completes or releases the key. */
  attemptId: string;
  status: number | null;
  /**
   * The response body, sealed (AES-256-GCM) with a key derived from the Idempotency-Key, which
   * is itself never stored: a replayed purchase intent carries its confirmation token, and the
   * store must not hold that token readable.
   */
  sealedBody: string | null;
  createdAt: string;
  /** Epoch ms after which the key may be reused. */
  expiresAt: number;
  /** Epoch ms after which a RUNNING record is considered abandoned by a crashed process. */
  leaseUntil: number;
};

export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_MESSAGES = {
  differentBody: 'Idempotency-Key was already used with a different request body',
  running: 'A request with this Idempotency-Key is still being processed',
} as const;

/** Stable JSON (sorted keys) so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

export const fingerprintOf = (body: unknown) => createHash('sha256').update(canonical(body)).digest('hex');
export const recordId = (scope: string, key: string) =>
  createHash('sha256').update(`${scope}\n${key}`).digest('hex');

export type IdempotencyDecision =
  | { kind: 'run' }
  | { kind: 'replay'; status: number; sealedBody: string | null };

/** What to do with a request whose key already has a record (null: none, or expired). */
export function decide(
  record: IdempotencyRecord | null,
  fingerprint: string,
  now: number,
): IdempotencyDecision {
  if (!record || record.expiresAt <= now) return { kind: 'run' };
  if (record.fingerprint !== fingerprint)
    throw validationError(
      [
        {
          loc: ['headers', 'idempotency-key'],
          msg: 'was already used with a different request body',
          type: 'idempotency_mismatch',
        },
      ],
      422,
      IDEMPOTENCY_MESSAGES.differentBody,
    );
  if (record.state === 'RUNNING') {
    if (record.leaseUntil <= now) return { kind: 'run' };
    // The first attempt may be done and its record still being written (a slow store): worth
    // asking again in a moment.
    throw new AppError('CONFLICT', 409, IDEMPOTENCY_MESSAGES.running, { headers: { 'retry-after': '1' } });
  }
  return { kind: 'replay', status: record.status ?? 200, sealedBody: record.sealedBody };
}

const sealKey = (scope: string, key: string) =>
  createHash('sha256').update(`idempotency-response\n${scope}\n${key}`).digest();

export function sealBody(body: unknown, scope: string, key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(scope, key), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(body ?? null), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function openBody(sealed: string | null, scope: string, key: string): unknown {
  if (!sealed) return null;
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(scope, key), iv!);
  decipher.setAuthTag(tag!);
  return JSON.parse(Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8'));
}
