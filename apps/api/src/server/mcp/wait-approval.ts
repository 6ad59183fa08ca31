// The await-approval step of a held tools/call (docs/mcp.md, "What each decision looks like to the agent"):
// waiting for a person to decide it, the approvals table read on each approval event of this process and every
// poll interval (a `tollgate serve` in another process decides it in the same database), until it is decided,
// expires, the client cancels, or the bounded wait ends; the client hears the seconds as progress meanwhile.
import type { Code } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import type { CallAnswer } from '../gate/decide-agent-call.ts';
import { inSpan } from '../observability/tracing.ts';
import { statusOf } from '../state/approvals/model.ts';
import type { ProgressRelay } from './progress-relay.ts';
import { errorResult, type Refused, toldOf } from './tool-result.ts';

export type WaitOutcome = 'approved' | 'denied' | 'expired' | 'cancelled' | 'timed_out';

const POLL_MS = 250;
const PROGRESS_EVERY_MS = 1000;

/** The approval request a held call waits on. */
export type HeldApproval = NonNullable<CallAnswer['approval']>;

/** The code and words of each end of the wait but approval, each naming the approval so the agent may retry. */
const WAIT_ENDED: Record<Exclude<WaitOutcome, 'approved'>, (id: string) => [code: Code, message: string]> = {
  denied: (id) => ['APPROVAL_DENIED', `approval ${id} was denied`],
  expired: (id) => ['APPROVAL_EXPIRED', `approval ${id} expired undecided`],
  cancelled: (id) => ['CALL_CANCELLED', `the client cancelled the call held for approval ${id}`],
  timed_out: (id) => ['APPROVAL_WAIT_ENDED', `approval ${id} is still undecided; the gateway stopped waiting, so retry later`],
};

/**
 * The await-approval step: waits for a person to decide the approval `answer` holds the call for, telling
 * `relay` the seconds waited once a second, and goes on with that approval once it is approved; any other end is
 * the call's error result.
 *
 * @example
 * const held = await awaitApproval(ctx, answer, { waitMs: 600_000, signal: extra.signal, relay });
 * if ('refused' in held) return held.refused;
 */
export async function awaitApproval(
  ctx: AppContext,
  answer: CallAnswer,
  options: { waitMs: number; signal: AbortSignal; relay: ProgressRelay | undefined },
): Promise<Refused | { approval: HeldApproval }> {
  const told = toldOf(answer);
  const approval = answer.approval;
  if (!approval) return { refused: errorResult(answer.code ?? 'DENIED', 'the call is held, with no approval request to wait for', told) };
  let sentAt = 0;
  // The wait is a span of its own and a metric by how it ended (observability/).
  const outcome = await inSpan('tollgate.held_wait', { 'tollgate.call_id': answer.call_id }, async (span) => {
    const started = performance.now();
    const ended = await waitForApproval(ctx, approval.id, {
      waitMs: options.waitMs,
      signal: options.signal,
      onTick: (elapsed) => {
        if (elapsed - sentAt < PROGRESS_EVERY_MS) return;
        sentAt = elapsed;
        options.relay?.({ progress: Math.floor(elapsed / 1000), message: `waiting for a person to decide approval ${approval.id}` });
      },
    });
    ctx.metrics.heldWait(ended, (performance.now() - started) / 1000);
    span.setAttribute('tollgate.outcome', ended);
    return ended;
  });
  if (outcome === 'approved') return { approval };
  const [code, message] = WAIT_ENDED[outcome](approval.id);
  return { refused: errorResult(code, message, { ...told, approval }) };
}

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
