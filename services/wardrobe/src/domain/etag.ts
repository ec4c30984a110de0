import { createHash } from 'node:crypto';

/** Strong ETag of a representation: a hash of its JSON. */
export function etagOf(value: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 32)}"`;
}

function tags(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** If-None-Match: `*` or any listed tag (weak comparison, as RFC 9110 says for this header). */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => t.replace(/^W\//, '');
  return tags(header).some((t) => t === '*' || strip(t) === strip(etag));
}

/** If-Match: absent passes; `*` passes for an existing resource; otherwise a strong match is needed. */
export function ifMatchPasses(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  return tags(header).some((t) => t === '*' || t === etag);
}
