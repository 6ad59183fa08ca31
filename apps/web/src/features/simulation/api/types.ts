// The simulation shapes the API answers (docs/api.md, "Simulations"; POST /v1/simulations, GET /v1/trials/{document}).
import type { ExampleSuite } from '@tollgate/engine';

export interface Decided {
  decision: string;
  rule: string | null;
  code: string | null;
}

export type Outcome = Decided | { not_evaluable: true; code: string };

export type CallStatus = 'agreed' | 'differed' | 'not_evaluable' | 'decided';

export interface SimulatedCall {
  name: string;
  tool: string;
  status: CallStatus;
  code?: string;
  document: Outcome;
  candidate?: Outcome;
  expected?: unknown;
  recorded?: unknown;
}

export interface SimulationResult {
  compared: 'candidate' | 'expected' | 'recorded';
  counts: { calls: number; agreed: number; differed: number; not_evaluable: number };
  calls: SimulatedCall[];
}

export interface VersionRef {
  id: string;
  sequence?: number;
}

export interface PastedCall {
  tool: { name: string; action: string; amount?: { pointer: string; currency: string; currency_pointer?: string } };
  arguments: Record<string, unknown> | null;
  expect?: { decision: string; rule?: string | null; code?: string | null };
}

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

export interface TrialReport {
  document: string;
  candidate: number;
  sample_rate: number;
  started_at: string;
  calls: number;
  sampled: number;
  agreed: number;
  differed: number;
  differing: string[];
  running: boolean;
}

/** The policy documents and versions to pick from (a subset of GET /v1/documents and /history). */
export interface PolicySummary {
  id: string;
  kind: string | null;
  running_sequence: number | null;
}

export interface PolicyVersion {
  sequence: number;
  reason: string;
  running: boolean;
  rejected: boolean;
}
