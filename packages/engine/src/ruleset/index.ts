// Rule sets at run time: every pinned rule judged in parallel against one call.
export * from './run-ruleset.ts';
