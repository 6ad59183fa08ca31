// The review pool: decision maps, diffs, impact previews and a policy edit's impact run on threads of their
// own (two), never on the event loop, so one analysis never delays a gate call, a compile or another
// analysis's answer beyond the queue. Each runs within a time budget; a caller that leaves (its request
// aborted) cancels its job, queued or running; the queue says where each job stands (GET /v1/review/queue;
// docs/review.md, "Budgets and cancelling").
import { analyzeImpact, type Impact } from '@tollgate/engine';
import { CompileThread, type ReviewLimits, type Task } from '../compile-thread.ts';
import { ApiError } from '../errors.ts';
import type { ReviewAnswer, ReviewTask } from './answers.ts';
import { runReview } from './answers.ts';

/** Threads that run analyses at once. */
export const REVIEW_THREADS = 2;
/** Jobs that may wait for a thread; one more is refused (REVIEW_QUEUE_FULL), but for an edit's impact. */
export const REVIEW_QUEUE_MAX = 16;
/** How long one analysis may run, from when a thread takes it, unless TOLLGATE_REVIEW_TIME_MS says otherwise. */
export const REVIEW_TIME_MS = 30_000;

/** The time budget of a job starting now: TOLLGATE_REVIEW_TIME_MS when it is a whole number of milliseconds. */
export function reviewTimeMs(): number {
  const text = process.env.TOLLGATE_REVIEW_TIME_MS;
  return text !== undefined && /^[1-9][0-9]{0,7}$/.test(text) ? Number(text) : REVIEW_TIME_MS;
}

type Kind = 'map' | 'preview' | 'diff' | 'impact';

interface Job {
  id: number;
  what: string;
  kind: Kind;
  cancel: SharedArrayBuffer;
  enqueued: number;
  started?: number;
  /** The task as a thread runs it, within the limits the job gets when it starts. */
  task(limits: ReviewLimits): Task;
  /** The same on the event loop, should the thread fail. */
  inline(limits: ReviewLimits): unknown;
  settle(answer: unknown): void;
}

/** Where a job stands, as GET /v1/review/queue answers it. */
export interface JobStanding {
  id: number;
  what: string;
  kind: Kind;
  state: 'running' | 'queued';
  /** For a queued job: how many jobs are ahead of it in the queue (0: next). */
  ahead?: number;
  waited_ms: number;
  running_ms?: number;
}

/** The limits a thread reads, as the analysis's own: the deadline, and the shared cell as its signal. */
function signalled(limits: ReviewLimits) {
  const cell = new Int32Array(limits.cancel);
  return {
    deadline: limits.deadline,
    signal: {
      get aborted() {
        return Atomics.load(cell, 0) === 1;
      },
    },
  };
}

class ReviewPool {
  private readonly threads: (CompileThread | undefined)[] = Array.from({ length: REVIEW_THREADS }, () => undefined);
  private readonly running: (Job | undefined)[] = Array.from({ length: REVIEW_THREADS }, () => undefined);
  private readonly queue: Job[] = [];
  private next = 1;

  run<T>(kind: Kind, what: string, task: Job['task'], inline: Job['inline'], signal: AbortSignal | undefined): Promise<T> {
    if (signal?.aborted) return Promise.reject(cancelled());
    // An edit's impact is never refused: the edit is already being written, and waits its turn instead.
    if (kind !== 'impact' && this.queue.length >= REVIEW_QUEUE_MAX && this.running.every((j) => j !== undefined)) {
      return Promise.reject(new ApiError('REVIEW_QUEUE_FULL', `${this.queue.length} analyses wait already`, {}, { 'Retry-After': '5' }));
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.next++,
        what,
        kind,
        task,
        inline,
        cancel: new SharedArrayBuffer(4),
        enqueued: Date.now(),
        settle: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          if (answer instanceof Error) reject(answer);
          else resolve(answer as T);
        },
      };
      const onAbort = () => {
        const at = this.queue.indexOf(job);
        if (at >= 0) {
          this.queue.splice(at, 1);
          job.settle(cancelled());
        } else Atomics.store(new Int32Array(job.cancel), 0, 1);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  standing(): JobStanding[] {
    const now = Date.now();
    const running = this.running
      .filter((j): j is Job => j !== undefined)
      .map((j) => ({
        id: j.id,
        what: j.what,
        kind: j.kind,
        state: 'running' as const,
        waited_ms: (j.started ?? now) - j.enqueued,
        running_ms: now - (j.started ?? now),
      }));
    const queued = this.queue.map((j, ahead) => ({
      id: j.id,
      what: j.what,
      kind: j.kind,
      state: 'queued' as const,
      ahead,
      waited_ms: now - j.enqueued,
    }));
    return [...running, ...queued];
  }

  private pump(): void {
    for (let slot = 0; slot < REVIEW_THREADS && this.queue.length > 0; slot++) {
      if (this.running[slot] !== undefined) continue;
      const job = this.queue.shift() as Job;
      this.running[slot] = job;
      job.started = Date.now();
      const limits: ReviewLimits = { deadline: job.started + reviewTimeMs(), cancel: job.cancel };
      let thread = this.threads[slot];
      if (!thread || thread.dead) {
        thread = new CompileThread();
        this.threads[slot] = thread;
      }
      thread
        .run(job.task(limits))
        // A thread that failed: the same work inline, within the same limits (an answer late is better than none).
        .catch(() => job.inline(limits))
        .then(
          (answer) => job.settle(answer),
          (err: unknown) => job.settle(err instanceof Error ? err : new Error(String(err))),
        )
        .finally(() => {
          this.running[slot] = undefined;
          this.pump();
        });
    }
  }
}

function cancelled(): ApiError {
  return new ApiError('ANALYSIS_CANCELLED', 'the analysis was cancelled before it ran', { limit: 'cancel' });
}

let pool: ReviewPool | undefined;

/** Runs a review task on the pool: queued behind at most REVIEW_QUEUE_MAX others, cancelled when `signal` aborts. */
export function runOnPool(task: ReviewTask, what: string, signal?: AbortSignal): Promise<ReviewAnswer> {
  pool ??= new ReviewPool();
  const kind = 'map' in task ? 'map' : 'preview' in task ? 'preview' : 'diff';
  return pool.run<ReviewAnswer>(
    kind,
    what,
    (limits) => ({ review: task, limits }),
    (limits) => runReview(task, signalled(limits)),
    signal,
  );
}

/**
 * A policy's impact (its decision diff against the running text) on the pool: it can take seconds whatever the
 * text's size, so never on the event loop. Its own budget (IMPACT_ANALYSIS_MS) makes an edit over it count as
 * widening; it is not cancelled, as the edit it weighs is already being written.
 */
export function policyImpactOnPool(running: string | undefined, text: string, what: string): Promise<Impact> {
  pool ??= new ReviewPool();
  return pool.run<Impact>(
    'impact',
    what,
    () => ({ impact: { kind: 'policy', running, text } }),
    () => analyzeImpact('policy', running, text, {}),
    undefined,
  );
}

/** Every job running or waiting, in order. */
export function poolStanding(): JobStanding[] {
  return pool?.standing() ?? [];
}
