import { createHash } from 'node:crypto';
import type { AuditEntry } from '@hs/contracts';

/** prevHash of a household's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with object keys sorted at every depth, so the same entry always hashes the same
 * whatever order a backend (Firestore maps, sqlite JSON) gives its keys back in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** SHA-256 hex over every field of the entry except `hash` itself (prevHash included: that links the chain). */
export function hashEntry(entry: Omit<AuditEntry, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...fields } = entry;
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

/** Completes an entry with its hash. */
export function sealEntry(fields: Omit<AuditEntry, 'hash'>): AuditEntry {
  return { ...fields, hash: hashEntry(fields) };
}
