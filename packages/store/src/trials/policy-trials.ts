// Trials: a stored candidate version of a policy runs beside the running one on a sample of calls. The
// caller always gets the running version's answer; the counts are kept in the store's state, so a
// restart continues them. A trial never promotes anything: a person activates the candidate.
import { type CompiledPolicy, type CompiledTool, compilePolicy, type PolicyOutcome, readJsonText } from '@tollgate/engine';
import { type DocumentStore, StoreError } from '../types.ts';

export interface TrialReport {
  document: string;
  /** The candidate's sequence. */
  candidate: number;
  /** The share of calls that also run the candidate, 0 to 1. */
  sampleRate: number;
  startedAt: string;
  calls: number;
  sampled: number;
  agreed: number;
  differed: number;
  /** Ids of the calls whose answers differed (the latest 100). */
  differing: string[];
  running: boolean;
}

const MAX_DIFFERING = 100;
/** How long a call waits to count itself while another process holds the store's lock. */
const COUNT_WAIT_MS = 50;

/**
 * Trials of candidate policy versions.
 *
 * @example
 * const trials = new PolicyTrials(store);
 * await trials.start({ document: 'policies/refunds.policy.json', sequence: 4, sampleRate: 0.1 });
 * const outcome = await trials.decide('policies/refunds.policy.json', tool, args, callId); // the running version's answer
 */
export class PolicyTrials {
  private readonly store: DocumentStore;
  private readonly compiled = new Map<string, CompiledPolicy>();

  constructor(store: DocumentStore) {
    this.store = store;
  }

  async start(options: { document: string; sequence: number; sampleRate: number }): Promise<TrialReport> {
    const { document, sequence, sampleRate } = options;
    if (!(sampleRate > 0 && sampleRate <= 1))
      throw new StoreError('invalid_save', 'the sample rate is a share of calls, above 0 and at most 1');
    const candidate = await this.store.getVersion(document, sequence);
    if (!candidate) throw new StoreError('not_found', `${document} has no version ${sequence}`);
    if (candidate.rejected) throw new StoreError('rejected_version', `${document} version ${sequence} did not load`);
    if (candidate.running)
      throw new StoreError('invalid_save', `${document} version ${sequence} is already running; a trial runs a candidate`);
    this.policyOf(candidate.digest, candidate.text);
    const report: TrialReport = {
      document,
      candidate: sequence,
      sampleRate,
      startedAt: new Date().toISOString(),
      calls: 0,
      sampled: 0,
      agreed: 0,
      differed: 0,
      differing: [],
      running: true,
    };
    await this.store.writeState(this.key(document), report);
    return report;
  }

  async stop(document: string): Promise<TrialReport | undefined> {
    const report = await this.report(document);
    if (!report) return undefined;
    const stopped = { ...report, running: false };
    await this.store.writeState(this.key(document), stopped);
    return stopped;
  }

  async report(document: string): Promise<TrialReport | undefined> {
    return (await this.store.readState(this.key(document))) as TrialReport | undefined;
  }

  /** Decides a call with the running version; on a sampled call also with the candidate, and counts. */
  async decide(document: string, tool: CompiledTool, args: unknown, callId: string): Promise<PolicyOutcome> {
    const running = await this.store.get(document);
    if (!running) throw new StoreError('not_found', `no running version of ${document}`);
    const outcome = this.policyOf(running.digest, running.text).decide(tool, args);
    const report = await this.report(document);
    if (!report?.running || report.candidate === running.sequence) return outcome;
    // The candidate's answer is worked out first (reads and compiling cannot happen under the lock); the
    // counts then change in one step, so calls counted at once by two processes are all counted.
    const candidate = await this.store.getVersion(document, report.candidate);
    const other = candidate && this.policyOf(candidate.digest, candidate.text).decide(tool, args);
    try {
      await this.store.updateState(
        this.key(document),
        (value) => {
          const now = value as TrialReport | undefined;
          if (!now?.running || now.candidate !== report.candidate) return value;
          now.calls++;
          // Every 1/rate-th call, deterministically: the counts never depend on chance.
          const sampled = Math.floor(now.calls * now.sampleRate) > Math.floor((now.calls - 1) * now.sampleRate);
          if (sampled && other) {
            now.sampled++;
            if (other.decision === outcome.decision && other.rule === outcome.rule && other.code === outcome.code) now.agreed++;
            else {
              now.differed++;
              now.differing = [...now.differing, callId].slice(-MAX_DIFFERING);
            }
          }
          return now;
        },
        { waitMs: COUNT_WAIT_MS },
      );
    } catch (err) {
      // The counts are advisory: a call is never held up or refused because another process holds the
      // store's lock (docs/store.md, "The lock"); that call goes uncounted.
      if (!(err instanceof StoreError && err.code === 'locked')) throw err;
    }
    return outcome;
  }

  private policyOf(digest: string, text: string): CompiledPolicy {
    const known = this.compiled.get(digest);
    if (known) return known;
    const read = readJsonText(text);
    const compiled = read.ok && read.diagnostics.length === 0 ? compilePolicy(read.value) : undefined;
    if (!compiled?.ok) throw new StoreError('rejected_version', 'the version is not a valid policy document');
    this.compiled.set(digest, compiled.policy);
    return compiled.policy;
  }

  private key(document: string): string {
    return `trials/${document}`;
  }
}
