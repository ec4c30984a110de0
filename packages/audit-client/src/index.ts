export * from './audit-writer.ts';
export * from './system-entries.ts';
