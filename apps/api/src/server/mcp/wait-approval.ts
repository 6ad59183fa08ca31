// Waiting for a person to decide a held call: the approvals table read on each approval event of this
// process and every poll interval (a `tollgate serve` in another process decides it in the same database),
// until it is decided, expires, the client cancels, or the bounded wait ends.
import type { AppContext } from '../context.ts';
import { statusOf } from '../state/approvals.ts';

export type WaitOutcome = 'approved' | 'denied' | 'expired' | 'cancelled' | 'timed_out';

const POLL_MS = 250;

/**
 * Resolves once the approval `id` is decided or the wait ends; `onTick` runs at each poll (progress notices).
 *
 * @example
 * await waitForApproval(ctx, approvalId, { waitMs: 60_000 }) // 'approved'
 */
export function waitForApproval(
  ctx: AppContext,
  id: string,
  options: { waitMs: number; signal?: AbortSignal; onTick?: (elapsedMs: number) => void },
): Promise<WaitOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: WaitOutcome) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      unsubscribe();
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const check = async () => {
      const row = await ctx.state.findApproval(id).catch(() => undefined);
      if (done) return;
      if (!row) return finish('denied');
      const status = statusOf(row, ctx.now());
      if (status !== 'pending') return finish(status);
      const elapsed = Date.now() - started;
      if (elapsed >= options.waitMs) return finish('timed_out');
      options.onTick?.(elapsed);
    };
    const onAbort = () => finish('cancelled');
    const timer = setInterval(() => void check(), POLL_MS);
    const unsubscribe = ctx.events.subscribe((e) => {
      if (e.type === 'approval' && e.id === id) void check();
    });
    if (options.signal?.aborted) return finish('cancelled');
    options.signal?.addEventListener('abort', onAbort);
    void check();
  });
}
