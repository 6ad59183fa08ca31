// Review before it runs: decision maps of a catalogue under a policy version, the exact decision diff of
// two versions, and the impact preview of a candidate on an agent's tools (docs/review.md).

export { type ArgumentConstraint, type ArgumentTest, constraintHolds } from './argument-region.ts';
export { formatInterval, type Interval } from './axis.ts';
export {
  type DecisionChange,
  type DecisionDiff,
  type DependsOnArguments,
  type DiffEntry,
  type DiffOptions,
  decisionDiff,
  type Region,
  regionContains,
} from './decision-diff.ts';
export { type DecisionMapOptions, decisionMap, type MapBand, type MapDecision, type ToolDecision } from './decision-map.ts';
export { type ImpactPreview, impactPreview, type ToolImpact } from './impact-preview.ts';
export { type Direction, directionOf, type Outcome } from './outcome.ts';
export { type AnalysisLimits, type AnalysisStopCode, AnalysisStopped, MAX_REGIONS } from './region-split.ts';
export { type DiffSubject, subjectKey } from './subjects.ts';
