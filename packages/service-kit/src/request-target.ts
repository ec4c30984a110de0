/**
 * The origin form (path and query) of an HTTP request target. An absolute-form target
 * (`GET http://host/api/v1/...`, RFC 9112 §3.2.2: what a client configured for a proxy sends) is
 * read as its path, the way the router reads it (find-my-way's getPathFromAbsoluteUrl), so that
 * every use of `request.url` after routing (forwarding, idempotency keys, links) sees the same
 * path the route matched. null for a target that is neither.
 */
export function originForm(target: string): string | null {
  if (target.startsWith('/')) return target;
  const schemeEnd = target.indexOf('://');
  if (schemeEnd === -1) return null;
  const scheme = target.slice(0, schemeEnd).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return null;
  const rest = target.slice(schemeEnd + 3);
  // A fragment is no part of a request target; a slash after one must not start the path.
  if (rest.includes('#')) return null;
  const end = rest.search(/[/?]/);
  if (end === 0 || rest === '') return null;
  let host: string;
  try {
    host = new URL(target).host;
  } catch {
    return null;
  }
  if (host === '') return null;
  if (end === -1) return '/';
  return rest[end] === '?' ? `/${rest.slice(end)}` : rest.slice(end);
}
