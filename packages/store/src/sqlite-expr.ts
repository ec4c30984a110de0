import type { SQLInputValue } from 'node:sqlite';

/** A SQL fragment with its positional parameters. */
export interface Sql {
  sql: string;
  params: SQLInputValue[];
}

export const quoteIdent = (name: string): string => `"${name}"`;
// Field paths are validated identifiers and are inlined on purpose: an expression index is only
// used when the query repeats its json path literally.
export const valueExpr = (field: string): string => `json_extract(doc, '$.${field}')`;
export const typeExpr = (field: string): string => `json_type(doc, '$.${field}')`;
export const arrayTable = (table: string): string => `${table}__arr`;

/** An array element as stored in (and looked up from) the side table: JSON text keeps 1 and "1" apart. */
export const elementKey = (value: unknown): string => JSON.stringify(value);

/** A JSON value as json_extract() yields it: booleans as 0/1, arrays and objects as JSON text. */
export function toSqlValue(value: unknown): SQLInputValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return JSON.stringify(value);
}
