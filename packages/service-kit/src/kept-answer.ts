import type { IncomingHttpHeaders } from 'node:http';

/** One answer of the docs page, kept whole: its status, the headers it sends and its body. */
export type Answer = { statusCode: number; headers: Record<string, string | string[]>; payload: Buffer };

const EMPTY = Buffer.alloc(0);
/** What a reply without the body leaves out (a 304 describes the kept body without sending it). */
const BODY_HEADERS = new Set([
  'content-encoding',
  'content-language',
  'content-length',
  'content-range',
  'content-type',
]);

/**
 * The reply a kept file gives to a request's preconditions and Range, worked out from the kept
 * bytes as the static-file server under the page (@fastify/send) would have: a bare 412 when
 * If-Match or If-Unmodified-Since fails, a 304 when If-None-Match (or, without it,
 * If-Modified-Since) says the client's copy is current, a 206 slice of the kept buffer for one
 * satisfiable byte range, a bare 416 when none is, and the whole file otherwise (several ranges
 * included, which a server may answer in full). Only files carry an ETag; the page's generated
 * answers (the HTML, the document) never honoured these headers and still don't.
 */
export function answerFromKept(kept: Answer, request: IncomingHttpHeaders): Answer {
  const etag = single(kept.headers.etag);
  if (kept.statusCode !== 200 || etag === undefined) return kept;
  const lastModified = Date.parse(single(kept.headers['last-modified']) ?? '');
  // A reply without the body keeps the file's other headers (its CSP, ETag, caching).
  const bodiless = Object.fromEntries(
    Object.entries(kept.headers).filter(([name]) => !BODY_HEADERS.has(name)),
  );
  if (preconditionFails(request, etag, lastModified))
    return { statusCode: 412, headers: bodiless, payload: EMPTY };
  if (notModified(request, etag, lastModified)) return { statusCode: 304, headers: bodiless, payload: EMPTY };
  const range = single(request.range);
  if (single(kept.headers['accept-ranges']) !== 'bytes' || range === undefined || !/^ *bytes=/.test(range))
    return kept;
  if (!rangeFresh(request, etag, lastModified)) return kept;
  const size = kept.payload.length;
  const ranges = satisfiableRanges(range, size);
  if (ranges.length === 0)
    return { statusCode: 416, headers: { ...bodiless, 'content-range': `bytes */${size}` }, payload: EMPTY };
  if (ranges.length > 1) return kept;
  const [start, end] = ranges[0] as [number, number];
  return {
    statusCode: 206,
    headers: { ...kept.headers, 'content-range': `bytes ${start}-${end}/${size}` },
    // A view of the kept bytes, not a copy.
    payload: kept.payload.subarray(start, end + 1),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function tokens(list: string): string[] {
  return list
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token.length > 0);
}

/** ETags compare weakly, as send does: `"x"` matches `W/"x"`. */
function etagMatches(list: string, etag: string): boolean {
  return tokens(list).some((match) => match === etag || `W/${match}` === etag);
}

function preconditionFails(request: IncomingHttpHeaders, etag: string, lastModified: number): boolean {
  const ifMatch = single(request['if-match']);
  if (ifMatch && ifMatch !== '*' && !etagMatches(ifMatch, etag)) return true;
  const unmodifiedSince = Date.parse(single(request['if-unmodified-since']) ?? '');
  return !Number.isNaN(unmodifiedSince) && (Number.isNaN(lastModified) || lastModified > unmodifiedSince);
}

function notModified(request: IncomingHttpHeaders, etag: string, lastModified: number): boolean {
  // An end-to-end reload asks for the body whatever the client holds.
  if (single(request['cache-control'])?.includes('no-cache')) return false;
  const ifNoneMatch = single(request['if-none-match']);
  // If-None-Match, when sent, replaces If-Modified-Since (RFC 9110 13.1.3).
  if (ifNoneMatch !== undefined) return ifNoneMatch === '*' || etagMatches(ifNoneMatch, etag);
  const modifiedSince = Date.parse(single(request['if-modified-since']) ?? '');
  return !Number.isNaN(lastModified) && lastModified <= modifiedSince;
}

function rangeFresh(request: IncomingHttpHeaders, etag: string, lastModified: number): boolean {
  const ifRange = single(request['if-range']);
  if (ifRange === undefined) return true;
  if (ifRange.includes('"')) return ifRange.includes(etag);
  const since = Date.parse(ifRange);
  return !Number.isNaN(since) && (Number.isNaN(lastModified) || lastModified <= since);
}

/** The header's byte ranges that fall in the file, as [first, last] positions. */
function satisfiableRanges(header: string, size: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const spec of header.slice(header.indexOf('=') + 1).split(',')) {
    const parts = /^\s*(\d*)-(\d*)\s*$/.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) continue;
    const [first, last] = [parts[1] ?? '', parts[2] ?? ''];
    // "-n" is the last n bytes (all of them when the file is shorter).
    const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
    const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
    if (start <= end) ranges.push([start, end]);
  }
  return ranges;
}
