export * from './audit-writer.ts';
