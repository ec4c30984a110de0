// The append-only audit ledger in the service's store: one hash chain per household.
//
// Appending, safe across replicas and crashes. The entries are the truth; the chain head
// `{lastSeq, lastHash}` is only a shortcut to the end of the chain:
//   1. read the head (seq n, hash h);
//   2. create entry n+1 with prevHash h, together with an eventId marker, in one all-or-none
//      `createMany`. Both ids are deterministic, so the store's create-if-absent is the lock:
//      two writers cannot both take seq n+1, and one eventId cannot be recorded twice;
//   3. advance the head to n+1 (compare-and-set: only forward).
// A writer that loses step 2 checks the marker (same eventId already recorded → return that
// entry) or else rolls the head forward over the entry that won and retries. A crash between
// 2 and 3 leaves a complete entry ahead of the head, which the next writer rolls over; no seq
// is ever reserved without its entry, so the chain never has a gap for the verifier to trip on.
// Appends that wait together for one household go as one batch: one head read, the entries
// chained one after another with their markers in one all-or-none `createMany`, one head move.
// A batch that meets any conflict is redone one append at a time by the steps above.
// Nothing here updates or deletes an entry.
import {
  type AppendAuditEventRequest,
  type AuditChainVerification,
  type AuditEntry,
  type AuditPage,
  MissionType,
} from '@hs/contracts';
import { newId, nowIso } from '@hs/service-kit';
import {
  ABORT,
  type CollectionOptions,
  type Doc,
  type IndexSpec,
  type Store,
  StoreConflictError,
  type Where,
} from '@hs/store';
import { createChainChecker } from '../domain/audit-chain.ts';
import { GENESIS_HASH, sealEntry } from '../domain/audit-hash.ts';

export const AUDIT_ENTRIES = 'audit_entries';
/** Where chain heads lived before they moved beside the entries; still read when no head is there. */
export const AUDIT_HEADS = 'audit_heads';

type ChainHead = { lastSeq: number; lastHash: string };
/** Stored beside the entries (no householdId field, so entry queries never match it). */
type EventMarker = { entryId: string };
type LedgerDoc = (AuditEntry | EventMarker | ChainHead) & Doc;

const FILTERS = ['action', 'targetType', 'category'] as const;
const MAX_APPEND_ATTEMPTS = 1000;
/** Appends written together at most (one createMany of twice as many documents). */
const MAX_BATCH = 100;
const VERIFY_PAGE = 500;
const EXPORT_PAGE = 500;
/** DATA_ACCESS entries looked through at most when deciding whether a trail changed. */
const CHANGE_SCAN = 2000;
/**
 * Oldest entries of a trail looked through for its MISSION_CREATED: the orchestrator records it
 * right after creating the mission, but a reader's DATA_ACCESS or a redelivered entry may land first.
 */
const OPENING_SCAN = 20;

/** Who started a mission and its type, as the orchestrator recorded them (MISSION_CREATED). */
export type MissionOpening = { ownerId: string; missionType: MissionType };

/**
 * The opening facts in a MISSION_CREATED entry, only as the orchestrator writes it (the service
 * that owns missions; members cannot append to the ledger): anything else is no answer.
 */
function openingOf(entry: AuditEntry): MissionOpening | null {
  if (
    entry.action !== 'MISSION_CREATED' ||
    entry.category !== 'MISSION_LIFECYCLE' ||
    entry.sourceService !== 'orchestrator' ||
    !entry.actorId
  )
    return null;
  const missionType = MissionType.safeParse(entry.detail?.missionType);
  return missionType.success ? { ownerId: entry.actorId, missionType: missionType.data } : null;
}

/**
 * Every combination of the optional filters, each ending in seq: Firestore needs one composite
 * index per shape. sqlite keeps only the household's and one per single filter (a query with
 * two filters reads one of them and checks the other), since each index costs every append.
 */
function filterIndexes(): IndexSpec[] {
  const out: IndexSpec[] = [];
  for (let mask = 0; mask < 1 << FILTERS.length; mask++) {
    const filters = FILTERS.filter((_, i) => mask & (1 << i));
    out.push({
      fields: ['householdId', ...filters, 'seq'],
      sparse: true,
      ...(filters.length > 1 ? { firestoreOnly: true } : {}),
    });
  }
  return out;
}

/**
 * The household log (each filter combination) and the mission trail, both ordered by seq. Every
 * index is sparse: the markers and the head written with each entry have neither householdId nor
 * missionId, nor does an entry outside a mission have a missionId, so they cost the indexes
 * nothing (sqlite appends measured 1.5-2x faster without their index rows).
 */
export const AUDIT_LEDGER_COLLECTIONS = {
  [AUDIT_ENTRIES]: {
    indexes: [
      ...filterIndexes(),
      { fields: ['householdId', 'missionId', 'seq'], sparse: true },
      { fields: ['missionId'], sparse: true },
    ],
  },
} satisfies Record<string, CollectionOptions>;

export const entryId = (householdId: string, seq: number) =>
  `${householdId}:seq:${String(seq).padStart(12, '0')}`;
const markerId = (householdId: string, eventId: string) => `${householdId}:event:${eventId}`;
/** The household's chain head, beside its entries: written in the same atomic write as they are. */
export const headId = (householdId: string) => `${householdId}:head`;

export type AppendResult = { entry: AuditEntry; created: boolean };

export function createAuditLedger(store: Store) {
  const entries = store.collection<LedgerDoc>(AUDIT_ENTRIES, AUDIT_LEDGER_COLLECTIONS[AUDIT_ENTRIES]);
  const legacyHeads = store.collection<ChainHead & Doc>(AUDIT_HEADS);

  const getEntry = async (id: string) => (await entries.get(id)) as AuditEntry | null;

  const readHead = async (householdId: string): Promise<ChainHead | null> =>
    ((await entries.get(headId(householdId))) as ChainHead | null) ?? (await legacyHeads.get(householdId));

  const headAt = (entry: AuditEntry): readonly [string, LedgerDoc] => [
    headId(entry.householdId),
    { lastSeq: entry.seq, lastHash: entry.hash },
  ];

  /** Moves the head over an entry another writer left behind it (never backwards). */
  const advanceHead = async (householdId: string, entry: AuditEntry) => {
    const legacy = await legacyHeads.get(householdId);
    await entries.update(headId(householdId), (current) => {
      const lastSeq = Math.max((current as ChainHead | null)?.lastSeq ?? 0, legacy?.lastSeq ?? 0);
      return lastSeq >= entry.seq ? ABORT : headAt(entry)[1];
    });
  };

  // Appends to one household from this process go one batch after another: concurrent ones
  // would all read the same head and all but one lose the race and retry. The appends that
  // arrive while a batch is written form the next one. Other processes still race through the
  // store, which the loop in appendNow settles.
  type Pending = {
    eventId: string;
    event: AppendAuditEventRequest;
    resolve: (result: AppendResult) => void;
    reject: (err: unknown) => void;
  };
  const waiting = new Map<string, Pending[]>();
  const writing = new Set<string>();

  function append(householdId: string, event: AppendAuditEventRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const eventId = event.eventId ?? newId('aud', 16);
      const queue = waiting.get(householdId) ?? [];
      queue.push({ eventId, event, resolve, reject });
      waiting.set(householdId, queue);
      if (!writing.has(householdId)) void drain(householdId);
    });
  }

  async function drain(householdId: string): Promise<void> {
    writing.add(householdId);
    try {
      for (;;) {
        const batch = waiting.get(householdId)?.splice(0, MAX_BATCH) ?? [];
        if (batch.length === 0) break;
        await writeBatch(householdId, batch);
      }
    } finally {
      writing.delete(householdId);
      waiting.delete(householdId);
    }
  }

  async function writeBatch(householdId: string, batch: Pending[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const created = await appendTogether(householdId, batch);
        for (const [i, p] of batch.entries()) p.resolve({ entry: created[i]!, created: true });
        return;
      } catch (err) {
        if (!(err instanceof StoreConflictError)) {
          for (const p of batch) p.reject(err);
          return;
        }
        // A repeated eventId or another writer's entry: each append settles it on its own.
      }
    }
    for (const p of batch) {
      try {
        p.resolve(await appendNow(householdId, p.eventId, p.event));
      } catch (err) {
        p.reject(err);
      }
    }
  }

  /** The whole batch after the current head, all or nothing (StoreConflictError: nothing written). */
  async function appendTogether(householdId: string, batch: Pending[]): Promise<AuditEntry[]> {
    let head = (await readHead(householdId)) ?? { lastSeq: 0, lastHash: GENESIS_HASH };
    const created: AuditEntry[] = [];
    const docs: Array<readonly [string, LedgerDoc]> = [];
    for (const p of batch) {
      const entry = seal(householdId, p.eventId, p.event, head);
      const id = entryId(householdId, entry.seq);
      docs.push([id, entry], [markerId(householdId, p.eventId), { entryId: id }]);
      created.push(entry);
      head = { lastSeq: entry.seq, lastHash: entry.hash };
    }
    // One atomic write: the entries, their markers and the head that now names the last of them.
    await entries.createMany(docs, { put: [headAt(created.at(-1)!)] });
    return created;
  }

  function seal(householdId: string, eventId: string, event: AppendAuditEventRequest, head: ChainHead) {
    return sealEntry({
      eventId,
      householdId,
      missionId: event.missionId ?? null,
      category: event.category,
      severity: event.severity ?? 'INFO',
      action: event.action,
      detail: event.detail ?? {},
      sourceService: event.sourceService,
      actorId: event.actorId ?? null,
      targetType: event.targetType ?? null,
      targetId: event.targetId ?? null,
      createdAt: nowIso(),
      seq: head.lastSeq + 1,
      prevHash: head.lastHash,
    });
  }

  async function appendNow(
    householdId: string,
    eventId: string,
    event: AppendAuditEventRequest,
  ): Promise<AppendResult> {
    for (let attempt = 0; attempt < MAX_APPEND_ATTEMPTS; attempt++) {
      const head = (await readHead(householdId)) ?? { lastSeq: 0, lastHash: GENESIS_HASH };
      const entry = seal(householdId, eventId, event, head);
      const seq = entry.seq;
      const id = entryId(householdId, seq);
      try {
        await entries.createMany(
          [
            [id, entry],
            [markerId(householdId, eventId), { entryId: id }],
          ],
          { put: [headAt(entry)] },
        );
      } catch (err) {
        if (!(err instanceof StoreConflictError)) throw err;
        const marker = (await entries.get(markerId(householdId, eventId))) as EventMarker | null;
        if (marker) {
          const stored = await getEntry(marker.entryId);
          if (stored) return { entry: stored, created: false };
        }
        const winner = await getEntry(id);
        if (winner) await advanceHead(householdId, winner);
        continue;
      }
      return { entry, created: true };
    }
    throw new Error(
      `Audit append for household ${householdId} did not settle after ${MAX_APPEND_ATTEMPTS} attempts`,
    );
  }

  /**
   * One page and the number of entries the filters match (a seq bound narrows the page, not the
   * total). Counting reads every matching entry, so it is done only when nothing cheaper tells:
   * the household's whole log is as long as its head's seq, and a short page that starts at an
   * offset of its own ends the list.
   */
  async function page(
    householdId: string,
    options: {
      limit: number;
      offset: number;
      newestFirst: boolean;
      where?: Where[];
      seqBound?: Where | undefined;
    },
  ): Promise<AuditPage> {
    const where: Where[] = [['householdId', '==', householdId], ...(options.where ?? [])];
    const result = await entries.query({
      where: options.seqBound ? [...where, options.seqBound] : where,
      orderBy: [{ field: 'seq', direction: options.newestFirst ? 'desc' : 'asc' }],
      limit: options.limit,
      offset: options.offset,
    });
    const items = result.items as AuditEntry[];
    const shortPage = items.length < options.limit && (items.length > 0 || options.offset === 0);
    let total: number;
    if (where.length === 1) total = (await readHead(householdId))?.lastSeq ?? 0;
    else if (shortPage && !options.seqBound) total = options.offset + items.length;
    else total = await entries.count(where);
    return { items, total, limit: options.limit, offset: options.offset };
  }

  const missionWhere = (householdId: string, missionId: string): Where[] => [
    ['householdId', '==', householdId],
    ['missionId', '==', missionId],
  ];

  return {
    append,

    /** The household log, newest first, with optional equality filters. */
    householdPage(
      householdId: string,
      query: {
        limit: number;
        offset: number;
        action?: string | undefined;
        targetType?: string | undefined;
        category?: string | undefined;
        beforeSeq?: number | undefined;
      },
    ): Promise<AuditPage> {
      const where: Where[] = [];
      for (const field of FILTERS) {
        const value = query[field];
        if (value === undefined) continue;
        // The services name target types in either case (`HOUSEHOLD` from the gateway, `household`
        // here): a filter finds both, as a reader of the log would expect.
        const spellings = [...new Set([value, value.toUpperCase(), value.toLowerCase()])];
        if (field === 'targetType' && spellings.length > 1) where.push([field, 'in', spellings]);
        else where.push([field, '==', value]);
      }
      return page(householdId, {
        limit: query.limit,
        offset: query.offset,
        newestFirst: true,
        where,
        seqBound: query.beforeSeq === undefined ? undefined : ['seq', '<', query.beforeSeq],
      });
    },

    /** One mission's trail, oldest first. */
    missionTrail(
      householdId: string,
      missionId: string,
      query: { limit: number; offset: number; afterSeq?: number | undefined },
    ): Promise<AuditPage> {
      return page(householdId, {
        limit: query.limit,
        offset: query.offset,
        newestFirst: false,
        where: [['missionId', '==', missionId]],
        seqBound: query.afterSeq === undefined ? undefined : ['seq', '>', query.afterSeq],
      });
    },

    /**
     * Where the mission's trail is (mission ids are global): `here` when this household holds
     * entries of it, `elsewhere` when only another household does, `unknown` when none does yet.
     */
    async missionWhereabouts(
      householdId: string,
      missionId: string,
    ): Promise<'here' | 'elsewhere' | 'unknown'> {
      const here = await entries.query({ where: missionWhere(householdId, missionId), limit: 1 });
      if (here.items.length > 0) return 'here';
      const anywhere = await entries.query({ where: [['missionId', '==', missionId]], limit: 1 });
      return anywhere.items.length > 0 ? 'elsewhere' : 'unknown';
    },

    /**
     * The mission's owner and type from its MISSION_CREATED entry among the oldest of its trail in
     * this household (the trail's own index, no call to the orchestrator); null when none is there.
     */
    async missionOpening(householdId: string, missionId: string): Promise<MissionOpening | null> {
      const result = await entries.query({
        where: missionWhere(householdId, missionId),
        orderBy: [{ field: 'seq' }],
        limit: OPENING_SCAN,
      });
      for (const entry of result.items as AuditEntry[]) {
        const opening = openingOf(entry);
        if (opening) return opening;
      }
      return null;
    },

    /**
     * The oldest entries of a mission's trail, oldest first, as many as fit the bounds (for an
     * AuditLog export); `truncated` when more are left. `beforePage` runs before each read and
     * may throw to give up (the caller's deadline).
     */
    async missionEntriesWithin(
      householdId: string,
      missionId: string,
      bounds: { maxEntries: number; maxChars: number; beforePage?: () => void },
    ): Promise<{ entries: AuditEntry[]; truncated: boolean }> {
      const out: AuditEntry[] = [];
      let chars = 0;
      let cursor: string | null = null;
      do {
        bounds.beforePage?.();
        const result = await entries.query({
          where: missionWhere(householdId, missionId),
          orderBy: [{ field: 'seq' }],
          // One more than still fits, to tell a full export from a truncated one.
          limit: Math.min(EXPORT_PAGE, bounds.maxEntries - out.length + 1),
          cursor,
        });
        for (const entry of result.items as AuditEntry[]) {
          const size = JSON.stringify(entry).length;
          if (out.length >= bounds.maxEntries || chars + size > bounds.maxChars)
            return { entries: out, truncated: true };
          out.push(entry);
          chars += size;
        }
        cursor = result.nextCursor;
      } while (cursor);
      return { entries: out, truncated: false };
    },

    /**
     * Whether the mission's trail has an entry after `seq` other than a DATA_ACCESS record (the
     * reads and exports of the trail itself). Reads at most CHANGE_SCAN entries: past them it
     * answers yes.
     */
    async missionChangedAfter(householdId: string, missionId: string, seq: number): Promise<boolean> {
      let cursor: string | null = null;
      let scanned = 0;
      do {
        const result = await entries.query({
          where: [...missionWhere(householdId, missionId), ['seq', '>', seq]],
          orderBy: [{ field: 'seq' }],
          limit: EXPORT_PAGE,
          cursor,
        });
        if ((result.items as AuditEntry[]).some((entry) => entry.category !== 'DATA_ACCESS')) return true;
        scanned += result.items.length;
        cursor = result.nextCursor;
      } while (cursor && scanned < CHANGE_SCAN);
      return cursor !== null;
    },

    /** Walks the whole chain from seq 1, recomputing every hash. */
    async verify(householdId: string): Promise<AuditChainVerification> {
      // Head first: an entry is always written before the head moves past it, so every seq the
      // head names must be found by the walk that follows, even while appends continue.
      const head = await readHead(householdId);
      const checker = createChainChecker(householdId);
      let cursor: string | null = null;
      walk: do {
        const result = await entries.query({
          where: [['householdId', '==', householdId]],
          orderBy: [{ field: 'seq', direction: 'asc' }],
          limit: VERIFY_PAGE,
          cursor,
        });
        for (const entry of result.items) if (!checker.add(entry as AuditEntry)) break walk;
        cursor = result.nextCursor;
      } while (cursor);
      return checker.result(head?.lastSeq ?? 0);
    },
  };
}

export type AuditLedger = ReturnType<typeof createAuditLedger>;
