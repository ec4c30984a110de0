export * from './firestore-emulator.ts';
export * from './processes.ts';
