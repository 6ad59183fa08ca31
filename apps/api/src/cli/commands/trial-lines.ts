// What `tollgate trial start|show|stop` print for people: a few plain lines of the report the API answers
// (routes/trials.ts, TrialSchema; docs/review.md, "Trials on live calls").
import { JsonNumber } from '@tollgate/engine/source';

/** What a version decided a call, as the trial routes give it. */
export interface TrialDecision {
  decision: string;
  rule: string | null;
  code: string | null;
}

/** A trial's report as GET /v1/trials/{document} answers it. */
export interface TrialReport {
  document: string;
  candidate: number;
  /** A JsonNumber unless 1: the exact reader keeps every number but a safe integer as written (server-client.ts). */
  sample_rate: number | JsonNumber;
  agent: string | null;
  tool: string | null;
  ends_at: string | null;
  max_samples: number | null;
  started_at: string;
  calls: number;
  sampled: number;
  agreed: number;
  differed: number;
  running: boolean;
  ended: 'stopped' | 'ends_at' | 'max_samples' | null;
}

/** One differing call as GET /v1/trials/{document}/differences lists it. */
export interface TrialDifference {
  call_id: string;
  arguments_digest: string | null;
  running: TrialDecision;
  candidate: TrialDecision;
}

const ENDED: Record<NonNullable<TrialReport['ended']>, string> = {
  stopped: 'stopped',
  ends_at: 'ended (its end time passed)',
  max_samples: 'ended (its samples taken)',
};

/** The report in three lines: the candidate and whether it runs, its scope and bounds, its counts. */
export function reportLines(r: TrialReport): string {
  const state = r.running ? 'running' : r.ended === null ? 'not running' : ENDED[r.ended];
  const scope = [
    r.agent === null ? 'every agent' : `agent ${r.agent}`,
    r.tool === null ? 'every tool' : `tool ${r.tool}`,
    `sample rate ${r.sample_rate instanceof JsonNumber ? r.sample_rate.lexeme : r.sample_rate}`,
    ...(r.ends_at === null ? [] : [`until ${r.ends_at}`]),
    ...(r.max_samples === null ? [] : [`at most ${r.max_samples} samples`]),
  ];
  return (
    `${r.document}: trial of version ${r.candidate}, ${state}\n` +
    `  scope: ${scope.join(', ')}\n` +
    `  since ${r.started_at}: calls ${r.calls}, sampled ${r.sampled}, agreed ${r.agreed}, differed ${r.differed}\n`
  );
}

/** Every differing call, one line each, in the order listed (newest first). */
export function differenceLines(differences: readonly TrialDifference[]): string {
  if (differences.length === 0) return 'no differing calls\n';
  const lines = differences.map((d) => `  ${d.call_id}  running: ${decisionText(d.running)}; candidate: ${decisionText(d.candidate)}\n`);
  return `${differences.length} differing call${differences.length === 1 ? '' : 's'}, newest first:\n${lines.join('')}`;
}

function decisionText(d: TrialDecision): string {
  return `${d.decision}${d.rule === null ? '' : ` by ${d.rule}`}${d.code === null ? '' : ` (${d.code})`}`;
}
