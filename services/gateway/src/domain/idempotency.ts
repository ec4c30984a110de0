import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
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

/**
 * A stored answer at least this long is deflated before it is sealed: a chat turn's answer is the
 * whole mission (15 kB on average in a soak, 43 kB at most) and every keyed answer is kept 24 h, so
 * the gateway's store grew by 7 MB a minute under ten busy households. Whoever reads the store
 * sees the sealed lengths, and compressing before sealing makes a length depend on the content
 * (the CRIME pattern); that tells a store reader nothing here: guessing a secret that way needs the
 * same secret sealed again and again beside their guesses, and each reply's secret (a checkout
 * confirmation token) is drawn anew and sealed once, under a key the store does not hold.
 * A gateway without this reads a deflated record as a broken one (500 on that key's retry): an
 * upgrade from one, or a rollback to one within the keys' 24 h, is the README's "Upgrading" note.
 */
const DEFLATE_FROM_BYTES = 1024;
/** The first part of a sealed answer that was deflated (an older record has three parts, none "z"). */
const DEFLATED = 'z';

export function sealBody(body: unknown, scope: string, key: string): string {
  const json = Buffer.from(JSON.stringify(body ?? null), 'utf8');
  const deflate = json.length >= DEFLATE_FROM_BYTES;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(scope, key), iv);
  const data = Buffer.concat([cipher.update(deflate ? deflateRawSync(json) : json), cipher.final()]);
  const sealed = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  return deflate ? `${DEFLATED}.${sealed}` : sealed;
}

export function openBody(sealed: string | null, scope: string, key: string): unknown {
  if (!sealed) return null;
  const parts = sealed.split('.');
  const deflated = parts[0] === DEFLATED;
  const [iv, tag, data] = (deflated ? parts.slice(1) : parts).map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(scope, key), iv!);
  decipher.setAuthTag(tag!);
  const plain = Buffer.concat([decipher.update(data!), decipher.final()]);
  return JSON.parse((deflated ? inflateRawSync(plain) : plain).toString('utf8'));
}
