// Documents: the kind an id names, one validator for every kind (rule sets, agents and settings have
// their formats here), and the impact analysers that say what an edit widens.

export * from './action-patterns.ts';
export * from './agent.ts';
export * from './codes.ts';
export * from './guard-implication.ts';
export * from './impact.ts';
export * from './impact-agent.ts';
export * from './impact-catalogue.ts';
export * from './impact-colang.ts';
export * from './impact-declarations.ts';
export * from './impact-policy.ts';
export * from './impact-ruleset.ts';
export * from './impact-settings.ts';
export * from './impact-sheet.ts';
export * from './impact-upstreams.ts';
export * from './kinds.ts';
export * from './ruleset.ts';
export * from './settings.ts';
export * from './types.ts';
export * from './upstreams.ts';
export * from './validate-document.ts';
export { parseDateTime, type ReferenceContext } from './values.ts';
