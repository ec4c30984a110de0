export * from './firestore-emulator.ts';
