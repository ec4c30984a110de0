import { randomBytes } from 'node:crypto';

/** Opaque, URL-safe id with the resource's prefix (`pr_`, `item_`, ...). */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

export const nowIso = (): string => new Date().toISOString();
