export { isValidDocId } from './checked-ids.ts';
export {
  createStore,
  firestoreNamespaceOf,
  type StoreConfig,
  type StoreEnv,
  storeConfigFromEnv,
} from './create-store.ts';
export { cursorAt } from './cursor-at.ts';
export { deleteExpired } from './delete-expired.ts';
export {
  type FirestoreIndex,
  type FirestoreIndexField,
  type FirestoreIndexFile,
  firestoreIndexDefinitions,
} from './firestore-indexes.ts';
export { inTurnPerKey } from './in-turn.ts';
export { queryAll } from './query-all.ts';
export { createSlotCounter, type SlotCounter } from './slot-counter.ts';
export * from './store-errors.ts';
export * from './types.ts';
