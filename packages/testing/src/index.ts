export * from './demo-shop/server.ts';
export * from './fake-peers.ts';
export * from './firestore-emulator.ts';
export * from './gateway-client.ts';
export * from './memory-blob-storage.ts';
export * from './otlp-receiver.ts';
export * from './processes.ts';
export * from './production-env.ts';
