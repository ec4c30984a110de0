/**
 * A deep copy of a stored document. Documents are JSON-shaped (plain objects, arrays, strings,
 * numbers, booleans, null), and copying those by hand is several times faster than
 * structuredClone's serialize-and-parse round trip, which a search returning a page of
 * documents pays per document. Anything else (a Date, a typed array, a Map) is left to
 * structuredClone, which also throws for what cannot be copied at all (functions, symbols).
 */
export function copyDoc<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
    case 'bigint':
      return value;
    case 'object':
      break;
    default:
      return structuredClone(value);
  }
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  // A spread keeps V8's fast property layout (adding keys one by one to `{}` turns a document
  // of this size into a hash map, slower to read on every later walk) and copies an own
  // "__proto__" key as a plain property. Nested values are then replaced by their copies.
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(out)) {
    const field = out[key];
    if (typeof field === 'object' && field !== null) out[key] = copyValue(field);
    else if (typeof field === 'function' || typeof field === 'symbol') structuredClone(field);
  }
  return out;
}
