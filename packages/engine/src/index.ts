// Tollgate's engine: pure TypeScript, no Node APIs, so the console runs the very same code.

export * from './codes/api-codes.ts';
export { type CliCode, CODES, type Code, type CodeInfo, codesIn, meaningOf, SEED_CODES } from './codes/index.ts';
export * from './colang/index.ts';
export * from './conditions/index.ts';
export * from './documents/index.ts';
export * from './gate/index.ts';
export * from './policy/index.ts';
export * from './review/index.ts';
export * from './rulebook/index.ts';
export * from './ruleset/index.ts';
export * from './sheet/index.ts';
export * from './source/index.ts';
