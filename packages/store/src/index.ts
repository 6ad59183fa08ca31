// Tollgate's Node side: document stores (memory, folder, PostgreSQL), the edit seam, and trials of candidate policies.

export { writeFileAtomic } from './atomic-file.ts';
export * from './document-export.ts';
export * from './document-id.ts';
export * from './document-index.ts';
export * from './edits/edit-seam.ts';
export * from './edits/engine-validators.ts';
export * from './edits/writers.ts';
export * from './folder-store.ts';
export * from './lock.ts';
export * from './memory-store.ts';
export * from './postgres-listen.ts';
export * from './postgres-migrations.ts';
export * from './postgres-schema.ts';
export * from './postgres-store.ts';
export { inTransaction, type TransactionOptions } from './postgres-transaction.ts';
export * from './store-check.ts';
export * from './trials/policy-trials.ts';
export * from './types.ts';
