// The gate: one agent call decided from its agent's compiled parts (decide-call.ts names the steps).

export * from './decide-call.ts';
export * from './prepare-gate.ts';
export * from './shadow-check.ts';
