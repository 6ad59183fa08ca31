// Trials of candidate policies (docs/store.md, "Trials"): a stored candidate runs beside the running version
// on a sample of calls, the caller always gets the running version's answer, the counts live in the
// store's state (so a new PolicyTrials on a reopened store continues them), and nothing is promoted.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compilePolicy, compileTool, type PolicyOutcome } from '@tollgate/engine';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { callLimit, isSampled, PolicyTrials } from '../src/trials/policy-trials.ts';
import { StoreError } from '../src/types.ts';
import { ANA, DEV, LineReader, REPO_ROOT, useTempDirs } from './helpers.ts';

const { tempDir, onCleanup } = useTempDirs();

const ID = 'policies/refunds.policy.json';
const RUNNING_TEXT = readFileSync(`${REPO_ROOT}examples/refunds.policy.json`, 'utf8');
/** The candidate auto-approves refunds up to 250 instead of 100. */
const CANDIDATE_TEXT = RUNNING_TEXT.replace('"gt": "100"', '"gt": "250"').replace('"lte": "100"', '"lte": "250"');
const refund = compileTool({ name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } });

function reference(text: string) {
  const compiled = compilePolicy(JSON.parse(text));
  if (!compiled.ok) throw new Error('the test policy does not compile');
  return compiled.policy;
}
const runningPolicy = reference(RUNNING_TEXT);
const candidatePolicy = reference(CANDIDATE_TEXT);

let root: string;
let store: FolderDocumentStore;

async function openStore(): Promise<FolderDocumentStore> {
  const opened = await FolderDocumentStore.open(root, { watch: false });
  onCleanup(() => opened.close());
  return opened;
}

beforeEach(async () => {
  root = tempDir();
  store = await openStore();
  await store.save({ id: ID, text: RUNNING_TEXT, author: ANA, reason: 'the refunds policy' });
  await store.save({ id: ID, text: CANDIDATE_TEXT, author: DEV, reason: 'auto-approve up to 250', activate: false });
});

async function decideAll(trials: PolicyTrials, amounts: [string, string][]): Promise<PolicyOutcome[]> {
  const outcomes: PolicyOutcome[] = [];
  for (const [callId, amount] of amounts) {
    const outcome = await trials.decide(ID, refund, { amount }, callId);
    // The caller always gets the running version's answer.
    expect(outcome).toEqual(runningPolicy.decide(refund, { amount }));
    outcomes.push(outcome);
  }
  return outcomes;
}

describe('PolicyTrials', () => {
  it('runs the candidate on every call at rate 1 and counts agreements and differences', async () => {
    expect(candidatePolicy.decide(refund, { amount: '150' }).decision).toBe('allow');
    const trials = new PolicyTrials(store);
    const started = await trials.start({ document: ID, sequence: 2, sampleRate: 1 });
    expect(started).toMatchObject({
      document: ID,
      candidate: 2,
      sampleRate: 1,
      calls: 0,
      sampled: 0,
      agreed: 0,
      differed: 0,
      differing: [],
      running: true,
    });
    expect(Number.isNaN(Date.parse(started.startedAt))).toBe(false);
    const outcomes = await decideAll(trials, [
      ['c1', '50'],
      ['c2', '150'],
      ['c3', '200'],
      ['c4', '300'],
      ['c5', '2000'],
      ['c6', '120'],
    ]);
    expect(outcomes.map((o) => o.decision)).toEqual([
      'allow',
      'require_approval',
      'require_approval',
      'require_approval',
      'deny',
      'require_approval',
    ]);
    expect(await trials.report(ID)).toMatchObject({
      calls: 6,
      sampled: 6,
      agreed: 3,
      differed: 3,
      differing: ['c2', 'c3', 'c6'],
      running: true,
    });
    // A trial never promotes: version 1 runs, version 2 is still a candidate, no version was added.
    expect(await store.get(ID)).toMatchObject({ sequence: 1, text: RUNNING_TEXT });
    expect((await store.history(ID)).map((v) => [v.sequence, v.running])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('runs the candidate on every other call at rate 0.5', async () => {
    const trials = new PolicyTrials(store);
    await trials.start({ document: ID, sequence: 2, sampleRate: 0.5 });
    await decideAll(
      trials,
      ['150', '150', '50', '150', '150', '300', '200', '120', '2000'].map((amount, i) => [`c${i + 1}`, amount]),
    );
    // Calls 2, 4, 6 and 8 are sampled: 150 and 120 differ, 300 agrees.
    expect(await trials.report(ID)).toMatchObject({ calls: 9, sampled: 4, agreed: 1, differed: 3, differing: ['c2', 'c4', 'c8'] });
    expect((await store.get(ID))?.sequence).toBe(1);
  });

  it('keeps its counts in the store: a new PolicyTrials on a reopened store continues them', async () => {
    const first = new PolicyTrials(store);
    await first.start({ document: ID, sequence: 2, sampleRate: 1 });
    await decideAll(first, [
      ['c1', '150'],
      ['c2', '50'],
    ]);
    await store.close();
    const reopened = await openStore();
    const second = new PolicyTrials(reopened);
    expect(await second.report(ID)).toMatchObject({ calls: 2, sampled: 2, agreed: 1, differed: 1, differing: ['c1'], running: true });
    await decideAll(second, [['c3', '200']]);
    // Two PolicyTrials on one store add to the same counts.
    const third = new PolicyTrials(reopened);
    await decideAll(third, [['c4', '300']]);
    expect(await second.report(ID)).toMatchObject({ calls: 4, sampled: 4, agreed: 2, differed: 2, differing: ['c1', 'c3'] });
    expect((await reopened.get(ID))?.sequence).toBe(1);
  });

  it('stops: later calls are not counted and still get the running answer', async () => {
    const trials = new PolicyTrials(store);
    expect(await trials.stop(ID)).toBeUndefined();
    await trials.start({ document: ID, sequence: 2, sampleRate: 1 });
    await decideAll(trials, [['c1', '150']]);
    const stopped = await trials.stop(ID);
    expect(stopped).toMatchObject({ calls: 1, differed: 1, running: false });
    await decideAll(trials, [['c2', '150']]);
    expect(await new PolicyTrials(await openStore()).report(ID)).toEqual(stopped);
    // Starting again starts the counts afresh.
    expect(await trials.start({ document: ID, sequence: 2, sampleRate: 1 })).toMatchObject({ calls: 0, running: true });
  });

  it('knows a document has no trial only from a read at most a second old', async () => {
    let clock = 0;
    const realNow = Date.now;
    Date.now = () => clock;
    try {
      const trials = new PolicyTrials(store);
      // Never read: unknown, so a gate asks (and reads).
      expect(trials.knownIdle(ID)).toBe(false);
      expect(await trials.active(ID)).toBeUndefined();
      expect(trials.knownIdle(ID)).toBe(true);
      clock += 999;
      expect(trials.knownIdle(ID)).toBe(true);
      clock += 1;
      expect(trials.knownIdle(ID)).toBe(false);
      // A trial this process starts is known at once; one stopped is known idle at once.
      await trials.start({ document: ID, sequence: 2, sampleRate: 1 });
      expect(trials.knownIdle(ID)).toBe(false);
      await trials.stop(ID);
      expect(trials.knownIdle(ID)).toBe(true);
      // Another process's start is seen once what was read is forgotten (or a second old).
      await new PolicyTrials(store).start({ document: ID, sequence: 2, sampleRate: 1 });
      expect(trials.knownIdle(ID)).toBe(true);
      trials.forget(ID);
      expect(trials.knownIdle(ID)).toBe(false);
      expect(await trials.active(ID)).toMatchObject({ candidate: 2 });
      expect(trials.knownIdle(ID)).toBe(false);
    } finally {
      Date.now = realNow;
    }
  });

  it('counts nothing once a person activates the candidate', async () => {
    const trials = new PolicyTrials(store);
    await trials.start({ document: ID, sequence: 2, sampleRate: 1 });
    await store.activate(ID, 2);
    const outcome = await trials.decide(ID, refund, { amount: '150' }, 'c1');
    expect(outcome).toEqual(candidatePolicy.decide(refund, { amount: '150' }));
    expect(await trials.report(ID)).toMatchObject({ calls: 0, sampled: 0 });
  });

  describe('refuses', () => {
    async function refusal(promise: Promise<unknown>): Promise<StoreError> {
      const err = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreError);
      return err as StoreError;
    }

    it('a rejected candidate', async () => {
      await store.save({ id: ID, text: '{"schema": ', author: DEV, reason: 'broken', rejected: [`${ID}:1: not JSON`] });
      const err = await refusal(new PolicyTrials(store).start({ document: ID, sequence: 3, sampleRate: 1 }));
      expect(err.code).toBe('rejected_version');
      expect(err.message).toBe(`${ID} version 3 did not load`);
      expect(await new PolicyTrials(store).report(ID)).toBeUndefined();
    });

    it('the running version as a candidate', async () => {
      const err = await refusal(new PolicyTrials(store).start({ document: ID, sequence: 1, sampleRate: 1 }));
      expect(err.code).toBe('invalid_save');
      expect(err.message).toBe(`${ID} version 1 is already running; a trial runs a candidate`);
      expect(await new PolicyTrials(store).report(ID)).toBeUndefined();
    });

    it('a version that does not exist, or is not a policy', async () => {
      expect((await refusal(new PolicyTrials(store).start({ document: ID, sequence: 9, sampleRate: 1 }))).code).toBe('not_found');
      await store.save({ id: ID, text: '{"schema": "tollgate/policy@1"}', author: DEV, reason: 'no rules', activate: false });
      const err = await refusal(new PolicyTrials(store).start({ document: ID, sequence: 3, sampleRate: 1 }));
      expect(err.code).toBe('rejected_version');
      expect(err.message).toBe('the version is not a valid policy document');
      expect(await new PolicyTrials(store).report(ID)).toBeUndefined();
    });

    it.each([0, -0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('a sample rate of %s', async (sampleRate) => {
      const err = await refusal(new PolicyTrials(store).start({ document: ID, sequence: 2, sampleRate }));
      expect(err.code).toBe('invalid_save');
      expect(err.message).toBe('the sample rate is a share of calls, above 0 and at most 1');
      expect(await new PolicyTrials(store).report(ID)).toBeUndefined();
    });
  });

  it('decides at once while another process holds the store lock, leaving that call uncounted', { timeout: 20_000 }, async () => {
    const trials = new PolicyTrials(store);
    await trials.start({ document: ID, sequence: 2, sampleRate: 1 });
    const holder = spawn(
      process.execPath,
      [
        '-e',
        "require('fs').writeFileSync(process.argv[1], String(process.pid)); console.log('held'); setInterval(() => {}, 1000)",
        join(root, '.tollgate', 'lock'),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    onCleanup(() => holder.kill('SIGKILL'));
    await new LineReader(holder).next();
    const started = performance.now();
    expect(await trials.decide(ID, refund, { amount: '50' }, 'c-1')).toEqual(runningPolicy.decide(refund, { amount: '50' }));
    // The count waits 50 ms at most; a generous bound, so a loaded box does not fail it.
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await trials.report(ID))?.calls).toBe(0);
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    await trials.decide(ID, refund, { amount: '50' }, 'c-2');
    expect((await trials.report(ID))?.calls).toBe(1);
  });
});

describe('trials scoped and bounded in the store', () => {
  it('samples only its tool, ends after max_samples or at ends_at, and pages its differences', async () => {
    let clock = new Date('2030-01-01T00:00:00Z');
    const trials = new PolicyTrials(store, { now: () => clock });
    await trials.start({ document: ID, sequence: 2, sampleRate: 1, tool: 'issue_refund', maxSamples: 3 });
    const other = compileTool({ name: 'refund_again', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } });
    await trials.decide(ID, other, { amount: '150' }, 'elsewhere');
    await decideAll(trials, [
      ['c1', '150'],
      ['c2', '50'],
      ['c3', '200'],
      ['c4', '150'],
    ]);
    expect(await trials.report(ID)).toMatchObject({ calls: 3, sampled: 3, differing: ['c1', 'c3'], running: false, ended: 'max_samples' });
    const newest = await trials.differences(ID, 1);
    expect(newest).toEqual({ startedAt: expect.any(String), differences: [expect.objectContaining({ callId: 'c3', seq: 2 })], more: true });
    expect((await trials.differences(ID, 5, 2))?.differences.map((d) => d.callId)).toEqual(['c1']);

    await expect(trials.start({ document: ID, sequence: 2, sampleRate: 1, endsAt: '2029-01-01T00:00:00Z' })).rejects.toThrow(/after now/);
    await trials.start({ document: ID, sequence: 2, sampleRate: 1, endsAt: '2030-01-01T00:00:10Z' });
    await decideAll(trials, [['d1', '150']]);
    clock = new Date('2030-01-01T00:00:10Z');
    await decideAll(trials, [['d2', '150']]);
    expect(await trials.report(ID)).toMatchObject({ calls: 1, sampled: 1, running: false, ended: 'ends_at' });
  });

  it('bounds a trial at the call that takes its last sample, at any rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 1000 }), (maxSamples, permille) => {
        const rate = permille / 1000;
        const last = callLimit(maxSamples, rate);
        let samples = 0;
        for (let c = 1; c <= last; c++) if (isSampled(c, rate)) samples++;
        expect(samples).toBe(maxSamples);
        expect(isSampled(last, rate)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
