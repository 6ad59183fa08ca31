// When what a gateway offers may have changed (docs/mcp.md, "Tools withheld and offered again"): an upstream of
// this process said its tools changed or listed other ones, or, in any process or node, a tool was authorized or
// a document changed. Authorizations and documents are counters in the shared state, read once a second for all
// the gateways of a process; each gateway then compares what it would offer with what it last told its client.
import type { AppContext } from '../context.ts';
import { onUpstreamChanged } from './upstream-pool.ts';

/** How often the authorization and document counters are read for the watching gateways. */
export const OFFER_POLL_MS = 1000;

interface Watch {
  listeners: Set<() => void>;
  timer: NodeJS.Timeout | undefined;
  seen: string | undefined;
  stopUpstreams: () => void;
}

const watches = new WeakMap<AppContext, Watch>();

async function generations(ctx: AppContext): Promise<string> {
  const [, authorizations] = await Promise.all([ctx.documentsFresh?.(), ctx.state.authorizationGeneration()]);
  return `${authorizations}/${ctx.documentChanges.generation}`;
}

function tell(watch: Watch): void {
  for (const listener of [...watch.listeners]) listener();
}

function start(ctx: AppContext): Watch {
  const watch: Watch = { listeners: new Set(), timer: undefined, seen: undefined, stopUpstreams: () => {} };
  let reading = false;
  const poll = async () => {
    if (reading) return;
    reading = true;
    try {
      const now = await generations(ctx);
      const before = watch.seen;
      watch.seen = now;
      if (before !== undefined && before !== now) tell(watch);
    } catch {
      // A state that cannot be read now is read again on the next tick.
    } finally {
      reading = false;
    }
  };
  void poll();
  watch.timer = setInterval(() => void poll(), OFFER_POLL_MS).unref();
  watch.stopUpstreams = onUpstreamChanged(ctx, () => tell(watch));
  ctx.events.onClose(() => stop(ctx, watch));
  return watch;
}

function stop(ctx: AppContext, watch: Watch): void {
  clearInterval(watch.timer);
  watch.stopUpstreams();
  if (watches.get(ctx) === watch) watches.delete(ctx);
}

/**
 * Calls `changed` whenever what a gateway of `ctx` offers may have changed; returns a function that stops it.
 *
 * @example
 * const stop = watchOffers(ctx, () => void recheck());
 */
export function watchOffers(ctx: AppContext, changed: () => void): () => void {
  let watch = watches.get(ctx);
  if (!watch) {
    watch = start(ctx);
    watches.set(ctx, watch);
  }
  const held = watch;
  held.listeners.add(changed);
  return () => {
    held.listeners.delete(changed);
    if (held.listeners.size === 0) stop(ctx, held);
  };
}
