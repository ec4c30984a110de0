import type { AuditEntry } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { createChainChecker } from '../src/domain/audit-chain.ts';
import { canonicalJson, GENESIS_HASH, hashEntry, sealEntry } from '../src/domain/audit-hash.ts';

const fields = (seq: number, prevHash: string): Omit<AuditEntry, 'hash'> => ({
  eventId: `aud_unit_test_${seq}`,
  householdId: 'h_1',
  missionId: null,
  category: 'SYSTEM',
  severity: 'INFO',
  action: 'TEST',
  detail: { b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } },
  sourceService: 'test',
  actorId: null,
  targetType: null,
  targetId: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  seq,
  prevHash,
});

function chain(n: number): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (let seq = 1; seq <= n; seq++) out.push(sealEntry(fields(seq, out.at(-1)?.hash ?? GENESIS_HASH)));
  return out;
}

describe('entry hash', () => {
  it('does not depend on key order at any depth', () => {
    expect(canonicalJson({ b: 1, a: { y: [2, { d: 1, c: 2 }], x: null } })).toBe(
      '{"a":{"x":null,"y":[2,{"c":2,"d":1}]},"b":1}',
    );
    const entry = fields(1, GENESIS_HASH);
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as typeof entry;
    expect(hashEntry(reordered)).toBe(hashEntry(entry));
  });

  it('changes with any field, including the link to the previous entry', () => {
    const base = hashEntry(fields(1, GENESIS_HASH));
    expect(hashEntry({ ...fields(1, GENESIS_HASH), detail: { b: 2 } })).not.toBe(base);
    expect(hashEntry(fields(1, 'f'.repeat(64)))).not.toBe(base);
  });
});

describe('chain checker', () => {
  it('accepts an intact chain', () => {
    const checker = createChainChecker('h_1');
    for (const e of chain(4)) expect(checker.add(e)).toBe(true);
    expect(checker.result(4)).toEqual({
      householdId: 'h_1',
      valid: true,
      entriesChecked: 4,
      firstBrokenSeq: null,
      reason: null,
    });
  });

  it('reports a re-hashed entry by its broken link to the next one', () => {
    const entries = chain(4);
    // A forger who also recomputes the altered entry's hash still breaks the next prevHash.
    entries[1] = sealEntry({ ...fields(2, entries[0]!.hash), action: 'FORGED' });
    const checker = createChainChecker('h_1');
    for (const e of entries) if (!checker.add(e)) break;
    expect(checker.result(4)).toMatchObject({
      valid: false,
      firstBrokenSeq: 3,
      reason: 'prevHash does not match the previous entry',
    });
  });

  it('reports entries the head promised but the walk did not find', () => {
    const checker = createChainChecker('h_1');
    for (const e of chain(2)) checker.add(e);
    expect(checker.result(3)).toMatchObject({
      valid: false,
      firstBrokenSeq: 3,
      reason: 'entry 3 is missing',
    });
  });
});
