// Trials: a stored candidate version of a policy runs beside the running one on a sample of calls. The
// caller always gets the running version's answer; the trial is kept in the store's state and its counts in
// a TrialCounter (the store's state by default, the API's database when served), so a restart continues
// them. A trial never promotes anything: a person activates the candidate.
import { type CompiledPolicy, type CompiledTool, compilePolicy, type PolicyOutcome, readJsonText } from '@tollgate/engine';
import { type DocumentStore, type StoredDocument, StoreError } from '../types.ts';
import {
  callLimit,
  type DifferencesPage,
  StateTrialCounter,
  type TrialCounter,
  type TrialDifference,
  type TrialVerdict,
} from './trial-counter.ts';

export * from './trial-counter.ts';

export interface TrialReport {
  document: string;
  /** The candidate's sequence. */
  candidate: number;
  /** The share of calls that also run the candidate, 0 to 1. */
  sampleRate: number;
  /** Only this agent's calls are sampled (and counted); none: every agent's. */
  agent?: string | undefined;
  /** Only calls of this tool are sampled (and counted); none: every tool's. */
  tool?: string | undefined;
  /** Calls decided at or after this time are not sampled (RFC 3339). */
  endsAt?: string | undefined;
  /** The trial ends after this many sampled calls. */
  maxSamples?: number | undefined;
  startedAt: string;
  calls: number;
  sampled: number;
  agreed: number;
  differed: number;
  /** Ids of the calls whose answers differed (the newest 100). */
  differing: string[];
  /** The calls whose answers differed, with both answers (the newest 100, oldest first). */
  differences: TrialDifference[];
  /** Whether the trial samples calls: started, not stopped and not ended. */
  running: boolean;
  /** Why it does not: stopped by a person, past `endsAt`, or `maxSamples` sampled; null while it runs. */
  ended: TrialEnd | null;
}

export type TrialEnd = 'stopped' | 'ends_at' | 'max_samples';

/** A trial as the store's state keeps it (`running` false once stopped); its counts are the counter's. */
type TrialDefinition = Pick<
  TrialReport,
  'document' | 'candidate' | 'sampleRate' | 'agent' | 'tool' | 'endsAt' | 'maxSamples' | 'startedAt' | 'running'
>;

/** What a trial's scope is matched against: one call the gate has answered. */
export interface TrialCall {
  callId: string;
  /** The agent that made the call; unknown (outside the gate), a trial of one agent does not sample it. */
  agent?: string | undefined;
  tool: string;
  /** When the call was decided. */
  at: Date;
  argumentsDigest?: string | undefined;
}

/** What a trial is started with besides its document and candidate. */
export interface TrialOptions {
  sampleRate: number;
  agent?: string | undefined;
  tool?: string | undefined;
  endsAt?: string | undefined;
  maxSamples?: number | undefined;
}

/** How long a process trusts what it read of a trial (another process may start or stop one meanwhile). */
const DEFINITION_TTL_MS = 1000;

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
  private readonly counter: TrialCounter;
  private readonly now: () => Date;
  private readonly compiled = new Map<string, CompiledPolicy>();
  private readonly definitions = new Map<string, { read: number; trial: TrialDefinition | undefined }>();
  /** Moves with every forget, so a read that began before one does not keep what it read. */
  private epoch = 0;

  constructor(store: DocumentStore, options: { counter?: TrialCounter; now?: () => Date } = {}) {
    this.store = store;
    this.counter = options.counter ?? new StateTrialCounter(store);
    this.now = options.now ?? (() => new Date());
  }

  async start(options: { document: string; sequence: number } & TrialOptions): Promise<TrialReport> {
    const { document, sequence, sampleRate } = options;
    if (!(sampleRate > 0 && sampleRate <= 1))
      throw new StoreError('invalid_save', 'the sample rate is a share of calls, above 0 and at most 1');
    if (options.maxSamples !== undefined && !(Number.isSafeInteger(options.maxSamples) && options.maxSamples >= 1))
      throw new StoreError('invalid_save', 'max_samples is a whole number of calls, at least 1');
    const startedAt = this.now();
    if (options.endsAt !== undefined && !(Date.parse(options.endsAt) > startedAt.getTime()))
      throw new StoreError('invalid_save', `ends_at is a time after now (${startedAt.toISOString()})`);
    const candidate = await this.store.getVersion(document, sequence);
    if (!candidate) throw new StoreError('not_found', `${document} has no version ${sequence}`);
    if (candidate.rejected) throw new StoreError('rejected_version', `${document} version ${sequence} did not load`);
    if (candidate.running)
      throw new StoreError('invalid_save', `${document} version ${sequence} is already running; a trial runs a candidate`);
    this.policyOf(candidate.digest, candidate.text);
    const trial: TrialDefinition = {
      document,
      candidate: sequence,
      sampleRate,
      ...scopeOf(options),
      startedAt: startedAt.toISOString(),
      running: true,
    };
    await this.counter.reset(document);
    await this.write(trial);
    return this.withCounts(trial);
  }

  async stop(document: string): Promise<TrialReport | undefined> {
    if (!(await this.definition(document))) return undefined;
    // Stopped in one step under the store's lock, so a trial another process started meanwhile is the one stopped.
    let stopped: TrialDefinition | undefined;
    await this.store.updateState(this.key(document), (value) => {
      const trial = definitionOf(document, value);
      stopped = trial && { ...trial, running: false };
      return stopped ?? value ?? null;
    });
    this.epoch++;
    this.definitions.set(document, { read: Date.now(), trial: undefined });
    return stopped && this.withCounts(stopped);
  }

  /**
   * Forgets what was read of one document's trial, or of every one, so the next call reads the store again:
   * another process wrote (apps/api/src/server/postgres/postgres-context.ts).
   */
  forget(document?: string): void {
    if (document === undefined) this.definitions.clear();
    else this.definitions.delete(document);
    this.epoch++;
  }

  async report(document: string): Promise<TrialReport | undefined> {
    const trial = await this.definition(document);
    return trial && this.withCounts(trial);
  }

  /**
   * The document's running trial, as read at most a second ago: what a gate asks on every call.
   *
   * @example
   * const trial = await trials.active('policies/refunds.policy.json'); // { candidate: 4, ... } or undefined
   */
  async active(document: string): Promise<TrialDefinition | undefined> {
    const known = this.definitions.get(document);
    if (known && Date.now() - known.read < DEFINITION_TTL_MS) return known.trial;
    const trial = await this.definition(document);
    return trial?.running ? trial : undefined;
  }

  /**
   * Whether the document is known, from a read at most a second old, to have no running trial: answered without a
   * read, so a gate with no trial running pays nothing for trials (apps/api/src/server/gate/live-trials.ts). False
   * when unknown, so the caller asks `active`, which reads.
   */
  knownIdle(document: string): boolean {
    const known = this.definitions.get(document);
    return known !== undefined && known.trial === undefined && Date.now() - known.read < DEFINITION_TTL_MS;
  }

  /**
   * Counts one call of the document's running trial, when the call is in the trial's scope (its agent, its tool,
   * before its end). On a sampled call, `candidateVerdict` answers the call with the candidate's stored version;
   * the two answers are compared and counted. Never changes the running version's answer, which the caller has
   * already.
   */
  async observe(
    trial: TrialDefinition,
    call: TrialCall,
    running: TrialVerdict,
    candidateVerdict: (candidate: StoredDocument) => TrialVerdict | undefined,
  ): Promise<void> {
    if (!inScope(trial, call) || !(await this.counter.countCall(trial))) return;
    const version = await this.store.getVersion(trial.document, trial.candidate);
    const candidate = version && candidateVerdict(version);
    if (!candidate) return;
    const digest = call.argumentsDigest === undefined ? {} : { argumentsDigest: call.argumentsDigest };
    await this.counter.countSample(
      trial,
      sameVerdict(running, candidate) ? undefined : { callId: call.callId, ...digest, running, candidate },
    );
  }

  /** A page of the trial's differing calls, newest first, with the trial's start (none when the document has no trial). */
  async differences(document: string, limit: number, before?: number): Promise<(DifferencesPage & { startedAt: string }) | undefined> {
    const trial = await this.definition(document);
    return trial && { startedAt: trial.startedAt, ...(await this.counter.differencesPage(trial, limit, before)) };
  }

  /** Decides a call with the running version; on a sampled call also with the candidate, and counts. */
  async decide(document: string, tool: CompiledTool, args: unknown, callId: string): Promise<PolicyOutcome> {
    const running = await this.store.get(document);
    if (!running) throw new StoreError('not_found', `no running version of ${document}`);
    const outcome = this.policyOf(running.digest, running.text).decide(tool, args);
    const trial = await this.definition(document);
    if (!trial?.running || trial.candidate === running.sequence) return outcome;
    await this.observe(trial, { callId, tool: tool.name, at: this.now() }, verdictOf(outcome), (candidate) =>
      verdictOf(this.policyOf(candidate.digest, candidate.text).decide(tool, args)),
    );
    return outcome;
  }

  /** The compiled policy of a stored version's text (kept by digest); throws for a text that is not one. */
  policyOf(digest: string, text: string): CompiledPolicy {
    const known = this.compiled.get(digest);
    if (known) return known;
    const read = readJsonText(text);
    const compiled = read.ok && read.diagnostics.length === 0 ? compilePolicy(read.value) : undefined;
    if (!compiled?.ok) throw new StoreError('rejected_version', 'the version is not a valid policy document');
    this.compiled.set(digest, compiled.policy);
    return compiled.policy;
  }

  private async withCounts(trial: TrialDefinition): Promise<TrialReport> {
    const counts = await this.counter.counts(trial);
    const ended: TrialEnd | null = !trial.running
      ? 'stopped'
      : trial.endsAt !== undefined && this.now().getTime() >= Date.parse(trial.endsAt)
        ? 'ends_at'
        : counts.calls >= callLimit(trial.maxSamples, trial.sampleRate)
          ? 'max_samples'
          : null;
    return { ...trial, ...counts, differing: counts.differences.map((d) => d.callId), running: ended === null, ended };
  }

  private async definition(document: string): Promise<TrialDefinition | undefined> {
    const epoch = this.epoch;
    const trial = definitionOf(document, await this.store.readState(this.key(document)));
    if (epoch === this.epoch) this.definitions.set(document, { read: Date.now(), trial: trial?.running ? trial : undefined });
    return trial;
  }

  private async write(trial: TrialDefinition): Promise<void> {
    await this.store.writeState(this.key(trial.document), trial);
    this.epoch++;
    this.definitions.set(trial.document, { read: Date.now(), trial: trial.running ? trial : undefined });
  }

  private key(document: string): string {
    return `trials/${document}`;
  }
}

/** A trial as stored, or undefined for none; one stored before trials had a scope has none. */
function definitionOf(document: string, stored: unknown): TrialDefinition | undefined {
  const value = stored as TrialDefinition | null | undefined;
  return value
    ? {
        document,
        candidate: value.candidate,
        sampleRate: value.sampleRate,
        ...scopeOf(value),
        startedAt: value.startedAt,
        running: value.running,
      }
    : undefined;
}

/** The scope and bounds a trial was given, without the ones it was not (the state is JSON: no undefined members). */
function scopeOf(options: Pick<TrialOptions, 'agent' | 'tool' | 'endsAt' | 'maxSamples'>): Partial<TrialDefinition> {
  return {
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(options.tool !== undefined ? { tool: options.tool } : {}),
    ...(options.endsAt !== undefined ? { endsAt: options.endsAt } : {}),
    ...(options.maxSamples !== undefined ? { maxSamples: options.maxSamples } : {}),
  };
}

/** Whether a trial samples a call: its agent and tool when it names them, decided before it ends. */
function inScope(trial: TrialDefinition, call: TrialCall): boolean {
  if (trial.agent !== undefined && call.agent !== trial.agent) return false;
  if (trial.tool !== undefined && call.tool !== trial.tool) return false;
  return trial.endsAt === undefined || call.at.getTime() < Date.parse(trial.endsAt);
}

/** What a policy answered, as a trial compares it. */
export function verdictOf(outcome: { decision: string; rule: string | null; code: string | null }): TrialVerdict {
  return { decision: outcome.decision, rule: outcome.rule, code: outcome.code };
}

function sameVerdict(a: TrialVerdict, b: TrialVerdict): boolean {
  return a.decision === b.decision && a.rule === b.rule && a.code === b.code;
}
