// Positions, diagnostics, JSON Pointers and exact JSON reading shared by every stage of the engine.
export * from './diagnostic.ts';
export * from './json-escapes.ts';
export * from './json-number.ts';
export * from './json-pointer.ts';
export * from './json-text.ts';
export * from './json-write.ts';
export * from './place-problems.ts';
export * from './yaml-text.ts';
