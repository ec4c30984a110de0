// Audit appends with the hash chain on sqlite (the ledger in-process, several concurrent
// writers on one household) beside raw sqlite inserts of rows of the same size, one
// autocommit insert each. The chain is verified afterwards: a fast but broken chain fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createStore } from '@hs/store';
import { createAuditLedger } from '../services/artifacts-audit/src/adapters/audit-ledger.ts';

export type AuditBenchResult = { appendsPerSec: number; rawInsertsPerSec: number; chainValid: boolean };

const WRITERS = 8;

export async function runAuditBench(options: { appends?: number } = {}): Promise<AuditBenchResult> {
  const total = options.appends ?? 5000;
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
  try {
    const store = createStore({ backend: 'sqlite', file: join(dir, 'audit.sqlite') });
    const ledger = createAuditLedger(store);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < total) {
          const i = next++;
          await ledger.append('h_bench', {
            category: 'MISSION_LIFECYCLE',
            action: 'CLIENT_EVENT' as const,
            sourceService: 'bench',
            detail: { i },
          });
        }
      }),
    );
    const appendsPerSec = total / ((performance.now() - started) / 1000);
    const verification = await ledger.verify('h_bench');
    await store.close();

    const db = new DatabaseSync(join(dir, 'raw.sqlite'));
    db.exec(
      'PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE t (id TEXT PRIMARY KEY, doc TEXT)',
    );
    const insert = db.prepare('INSERT INTO t (id, doc) VALUES (?, ?)');
    const row = JSON.stringify({
      category: 'MISSION_LIFECYCLE',
      action: 'CLIENT_EVENT' as const,
      detail: { i: 0 },
      hash: 'x'.repeat(64),
    });
    const rawStarted = performance.now();
    for (let i = 0; i < total; i++) insert.run(`r${i}`, row);
    const rawInsertsPerSec = total / ((performance.now() - rawStarted) / 1000);
    db.close();
    return {
      appendsPerSec,
      rawInsertsPerSec,
      chainValid: verification.valid && verification.entriesChecked === total,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runAuditBench());
