import { getPath } from './names.ts';
import type { NormalizedQuery } from './normalize-query.ts';
import type { Doc, Where } from './types.ts';

/*
 * The keys of an index over prefix fields (equality fields and array fields) followed by an
 * ordered field, shared by the in-memory index lists and sqlite's walk tables: a document is
 * listed under one key per combination of its array fields' elements, and a query reads the
 * keys of every combination of the values its filters name.
 */

/** A prefix value as it is written into a key; null for values equality is not indexed for. */
function keyPart(value: unknown): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  // -0 is written "0", as equality treats it; NaN and the infinities are not indexed.
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : null;
  return null;
}

const joinParts = (parts: readonly string[]) => `[${parts.join(',')}]`;

function combine(keys: string[][], parts: readonly string[]): string[][] {
  return keys.flatMap((k) => parts.map((p) => [...k, p]));
}

/** Every key a document is listed under: one per combination of its array fields' elements. */
export function documentKeys(doc: Doc, prefix: readonly string[], arrays: ReadonlySet<string>): string[] {
  let keys: string[][] = [[]];
  for (const field of prefix) {
    const value = getPath(doc, field);
    if (value === undefined) return [];
    const values = arrays.has(field) ? (Array.isArray(value) ? value : []) : [value];
    keys = combine(keys, [...new Set(values.map(keyPart).filter((k): k is string => k !== null))]);
    if (keys.length === 0) return [];
  }
  return keys.map(joinParts);
}

/**
 * The keys a query reads (one per combination of the values its filters name: array-contains-any
 * names several) and the filters those keys guarantee; null when a prefix field has no usable
 * filter: equality on an equality field, array-contains or array-contains-any on an array field.
 */
export function queryKeys(
  q: NormalizedQuery,
  prefix: readonly string[],
  arrays: ReadonlySet<string>,
): { keys: string[]; covered: Set<Where> } | null {
  let keys: string[][] = [[]];
  const covered = new Set<Where>();
  for (const field of prefix) {
    const clause = arrays.has(field)
      ? (q.where.find(([f, o]) => f === field && o === 'array-contains') ??
        q.where.find(([f, o]) => f === field && o === 'array-contains-any'))
      : q.where.find(([f, o]) => f === field && o === '==');
    if (!clause) return null;
    const values = clause[1] === 'array-contains-any' ? (clause[2] as unknown[]) : [clause[2]];
    const parts = values.map(keyPart);
    if (parts.some((p) => p === null)) return null;
    covered.add(clause);
    keys = combine(keys, [...new Set(parts as string[])]);
  }
  return { keys: keys.map(joinParts), covered };
}
