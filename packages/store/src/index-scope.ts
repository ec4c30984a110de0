import type { IndexSpec } from './types.ts';

/**
 * Whether a backend builds a declared index: the one place the scope flags are read. (The memory
 * store builds every index: a list costs it little.) sqlite skips what only Firestore or only the
 * memory store needs; Firestore skips what it cannot declare or does not need.
 */
export function builtOn(spec: IndexSpec, backend: 'sqlite' | 'firestore'): boolean {
  if (spec.memoryOnly) return false;
  return backend === 'sqlite' ? !spec.firestoreOnly : !spec.embeddedOnly;
}
