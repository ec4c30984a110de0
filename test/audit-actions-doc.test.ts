import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_ACTIONS } from '@hs/contracts';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'audit.md'), 'utf8');

describe('docs/audit.md', () => {
  it('lists exactly the actions of AUDIT_ACTIONS, each with its category', () => {
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| ([A-Z_]+) \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(Object.entries(AUDIT_ACTIONS).map(([action, info]) => [action, info.category]));
  });
});
