import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 signatures of the local backend's URLs. The signature covers the method, the key,
 * the content type, the byte limit and the expiry, so none of them can be changed without
 * invalidating the URL. Downloads sign an empty content type and a zero limit.
 */
export interface LocalSignedFields {
  method: 'PUT' | 'GET';
  key: string;
  contentType: string;
  maxBytes: number;
  /** Unix seconds. */
  expires: number;
}

export const UPLOAD_ROUTE_PREFIX = '/api/v1/uploads';

function canonical(f: LocalSignedFields): string {
  return [f.method, f.key, f.contentType.toLowerCase(), String(f.maxBytes), String(f.expires)].join('\n');
}

export function signLocalFields(secret: string, fields: LocalSignedFields): string {
  return createHmac('sha256', secret).update(canonical(fields)).digest('base64url');
}

/** `${publicBaseUrl}/api/v1/uploads/<key>?expires=..&max=..&sig=..` */
export function signedLocalUrl(publicBaseUrl: string, secret: string, fields: LocalSignedFields): string {
  const query = new URLSearchParams({
    expires: String(fields.expires),
    max: String(fields.maxBytes),
    sig: signLocalFields(secret, fields),
  });
  return `${publicBaseUrl.replace(/\/$/, '')}${UPLOAD_ROUTE_PREFIX}/${fields.key}?${query}`;
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'expired' };

/**
 * Checks a signed local URL's query against the request: signature first (constant time), then
 * expiry, so an attacker learns nothing about expiry of a URL they cannot sign.
 */
export function verifyLocalUploadSignature(input: {
  secret: string;
  method: 'PUT' | 'GET';
  key: string;
  contentType: string;
  query: { expires?: string | undefined; max?: string | undefined; sig?: string | undefined };
  now?: number;
}): SignatureCheck & { maxBytes?: number } {
  const { expires, max, sig } = input.query;
  if (!expires || !max || !sig) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(expires) || !/^\d{1,15}$/.test(max) || !/^[A-Za-z0-9_-]{43}$/.test(sig))
    return { ok: false, reason: 'malformed' };
  const fields: LocalSignedFields = {
    method: input.method,
    key: input.key,
    contentType: input.contentType,
    maxBytes: Number(max),
    expires: Number(expires),
  };
  const expected = Buffer.from(signLocalFields(input.secret, fields));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: 'invalid' };
  if (fields.expires * 1000 < (input.now ?? Date.now())) return { ok: false, reason: 'expired' };
  return { ok: true, maxBytes: fields.maxBytes };
}
