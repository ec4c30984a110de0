export * from './types.ts';
export { createStore, type StoreConfig, type StoreEnv, storeConfigFromEnv } from './create-store.ts';
export { isValidDocId } from './checked-ids.ts';
export {
  type FirestoreIndex,
  type FirestoreIndexField,
  type FirestoreIndexFile,
  firestoreIndexDefinitions,
} from './firestore-indexes.ts';
