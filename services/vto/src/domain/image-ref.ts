import { isValidKey } from '@hs/storage';

/**
 * Where a try-on input image comes from. Accepted references:
 * - this service's blob storage, in the form its `refFor` produces (`gs://<our bucket>/<key>`
 *   for cloudstore, `local://<key>` for local storage shared through ARTIFACT_LOCAL_DIR). The
 *   key must lie under `households/<householdId>/`, so a job can never read another household's
 *   images;
 * - an `https://` URL, fetched through the SSRF-safe fetcher.
 * Anything else (plain http, another bucket, wardrobe's signed upload URLs, data: URLs) is
 * refused when the job is submitted.
 */
export type ImageRef = { kind: 'storage'; key: string } | { kind: 'remote'; url: URL };

export type ParsedRef = { ok: true; ref: ImageRef } | { ok: false; reason: string };

export function parseImageRef(value: string, householdId: string, storagePrefix: string): ParsedRef {
  const trimmed = value.trim();
  if (trimmed.startsWith(storagePrefix)) {
    const key = trimmed.slice(storagePrefix.length);
    if (!isValidKey(key)) return { ok: false, reason: 'is not a valid storage key' };
    if (!key.startsWith(`households/${householdId}/`))
      return { ok: false, reason: `must point to this household's storage (households/${householdId}/...)` };
    return { ok: true, ref: { kind: 'storage', key } };
  }
  if (/^(gs|local):\/\//i.test(trimmed)) return { ok: false, reason: "is not in this service's storage" };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: `must be a ${storagePrefix} reference or an https URL` };
  }
  if (url.protocol !== 'https:')
    return { ok: false, reason: `must be a ${storagePrefix} reference or an https URL` };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  return { ok: true, ref: { kind: 'remote', url } };
}
