// Argument conditions: JSON Pointer selection with `*`, operator families, three-valued logic, exact decimals.

export * from './bounds.ts';
export * from './condition.ts';
export * from './decimal.ts';
export * from './eq.ts';
export * from './family.ts';
export * from './in.ts';
export * from './starts-with.ts';
export * from './tri.ts';
