// The simulation shapes, from the generated schema (docs/api.md, "Simulations"; POST /v1/simulations, GET /v1/trials/{document}).
import type { ExampleSuite } from '@tollgate/engine';
import type { components, paths } from '../../../lib/api/schema';

type Schemas = components['schemas'];

export type SimulationResult = paths['/simulations']['post']['responses'][200]['content']['application/json'];
/** One decided call; its `expected` and `recorded` are untyped in the schema and read loosely where shown. */
export type SimulatedCall = SimulationResult['calls'][number];
export type CallStatus = SimulatedCall['status'];
export type PastedCall = Schemas['PastedCall'];
export type TrialReport = Schemas['Trial'];
export type RecordedDecision = Schemas['RecordedDecision'];
/** The policy documents to pick from (GET /v1/documents, narrowed to policies). */
export type PolicySummary = Schemas['DocumentSummary'];
/** The stored versions to pick from (GET /v1/documents/{id}/history). */
export type PolicyVersion = Schemas['DocumentVersion'];

/** A stored version to simulate: the running one without a sequence (the first arm of SimulationBody's document). */
export interface VersionRef {
  id: string;
  sequence?: number;
}

/** Which recorded calls to replay (SimulationBody's calls.recorded). */
export interface RecordedFilter {
  agent?: string;
  since?: string;
  until?: string;
}

/** Pasted calls, an agent's recorded calls, or the policy's stored example suite (sent inline). */
export type CallsSource = { pasted: PastedCall[] } | { recorded: RecordedFilter } | { examples: ExampleSuite };

export interface SimulationRequest {
  document: VersionRef;
  candidate?: VersionRef;
  calls: CallsSource;
  /** Owners and admins may read recorded arguments (GET /v1/decisions?with_arguments=true). */
  withArguments: boolean;
}
