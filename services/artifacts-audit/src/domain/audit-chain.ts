import type { AuditChainVerification, AuditEntry } from '@hs/contracts';
import { GENESIS_HASH, hashEntry } from './audit-hash.ts';

export type ChainBreak = { seq: number; reason: string };

/**
 * Checks a household's chain one entry at a time, in seq order, so a verifier can stream
 * pages of any length through it. The first break is final: later entries are not judged.
 */
export function createChainChecker(householdId: string) {
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let checked = 0;
  let broken: ChainBreak | null = null;

  const check = (entry: AuditEntry): ChainBreak | null => {
    if (entry.seq !== expectedSeq) return { seq: expectedSeq, reason: `entry ${expectedSeq} is missing` };
    if (entry.householdId !== householdId)
      return { seq: entry.seq, reason: 'entry belongs to another household' };
    if (entry.prevHash !== prevHash)
      return { seq: entry.seq, reason: 'prevHash does not match the previous entry' };
    if (hashEntry(entry) !== entry.hash)
      return { seq: entry.seq, reason: 'hash does not match the entry content' };
    return null;
  };

  return {
    /** False once the chain is broken: the caller can stop reading. */
    add(entry: AuditEntry): boolean {
      if (broken) return false;
      checked += 1;
      broken = check(entry);
      if (broken) return false;
      expectedSeq += 1;
      prevHash = entry.hash;
      return true;
    },
    /**
     * The verdict. `headSeq` is the last seq the chain head recorded: entries the head promised
     * but the walk did not see mean the tail was deleted.
     */
    result(headSeq: number): AuditChainVerification {
      const lastSeen = expectedSeq - 1;
      if (!broken && headSeq > lastSeen)
        broken = { seq: lastSeen + 1, reason: `entry ${lastSeen + 1} is missing` };
      return {
        householdId,
        valid: broken === null,
        entriesChecked: checked,
        firstBrokenSeq: broken?.seq ?? null,
        reason: broken?.reason ?? null,
      };
    },
  };
}
