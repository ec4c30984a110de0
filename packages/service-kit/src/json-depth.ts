import { isUtf8 } from 'node:buffer';
import { AppError } from './errors.ts';

/** Deepest nesting of objects and arrays a request body may have (decisions, Conventions). */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `JSON is nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found by one scan of the text
 * before it is parsed: recursive code further on (validation, storage, logging) never meets a
 * body deep enough to exhaust the stack, which turned such bodies into 500s halfway through an
 * action. Brackets inside strings don't count.
 */
export function exceedsJsonDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export const tooDeep = () => new AppError('BAD_REQUEST', 400, TOO_DEEP_MESSAGE);

/** Bytes that are not UTF-8 are not JSON text (RFC 8259 §8.1). */
export const notUtf8 = () => new AppError('BAD_REQUEST', 400, 'Body is not valid JSON: it is not UTF-8');

/**
 * A JSON body's text, or why it is refused before parsing: bytes that are not UTF-8 (they would
 * be read as U+FFFD) or nesting deeper than MAX_JSON_DEPTH.
 */
export function jsonTextOf(bytes: Buffer): string | AppError {
  if (!isUtf8(bytes)) return notUtf8();
  const text = bytes.toString();
  return exceedsJsonDepth(text) ? tooDeep() : text;
}

const PROTOTYPE_KEYS_MESSAGE = 'JSON must not use "__proto__" or "constructor.prototype" as keys';

/**
 * The refusal for a body the prototype-poisoning guard stopped: text that JSON.parse reads is
 * valid JSON, and saying otherwise sends a client hunting for a syntax error that is not there.
 */
export function refusedJson(text: string): AppError | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  return new AppError('BAD_REQUEST', 400, PROTOTYPE_KEYS_MESSAGE);
}
