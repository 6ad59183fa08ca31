// The gate: one agent call decided from its agent's compiled parts (DESIGN.md, "The gate").

export * from './decide-call.ts';
export * from './prepare-gate.ts';
