import { randomPoolBytes } from './random-pool.ts';

/** Opaque, URL-safe id with the resource's prefix (`pr_`, `item_`, ...). */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomPoolBytes(bytes).toString('base64url')}`;
}

export const nowIso = (): string => new Date().toISOString();
