// Standard Webhooks signature check (https://www.standardwebhooks.com/, "Verifying webhooks"):
// HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<raw body>", base64, sent as "v1,<sig>"
// (several space-separated signatures allowed during secret rotation).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOLERANCE_SECONDS = 5 * 60;

export type SignatureHeaders = {
  'webhook-id'?: string | undefined;
  'webhook-timestamp'?: string | undefined;
  'webhook-signature'?: string | undefined;
};

export type SignatureCheck =
  | { ok: true; webhookId: string; timestamp: number }
  | { ok: false; reason: 'UNSIGNED' | 'MALFORMED' | 'STALE' | 'MISMATCH' };

/**
 * The HMAC key of a secret: a `whsec_` secret carries its key base64-encoded, as the standard
 * says; any other value is used as raw UTF-8 bytes (what `new Webhook(s, {format:'raw'})` signs).
 */
export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The body as it arrived, bytes and all: a body that is not UTF-8 is signed as sent, not as decoded. */
export function sign(key: Buffer, webhookId: string, timestamp: number, rawBody: string | Buffer): string {
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.`).update(rawBody).digest('base64')}`;
}

export function verifySignature(
  key: Buffer,
  headers: SignatureHeaders,
  rawBody: string | Buffer,
  nowSeconds: number,
): SignatureCheck {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!signatures) return { ok: false, reason: 'UNSIGNED' };
  if (!id || !ts || id.length > 256 || !/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'MALFORMED' };
  const timestamp = Number(ts);
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return { ok: false, reason: 'STALE' };
  const expected = Buffer.from(sign(key, id, timestamp, rawBody).slice(3), 'base64');
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const provided = Buffer.from(value, 'base64');
    // Lengths differ only for garbage; equal lengths are compared in constant time.
    if (provided.length === expected.length && timingSafeEqual(provided, expected))
      return { ok: true, webhookId: id, timestamp };
  }
  return { ok: false, reason: 'MISMATCH' };
}
