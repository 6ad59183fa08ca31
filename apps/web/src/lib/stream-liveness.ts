// Whether the event stream is live, judged by its heartbeat rather than by the socket: a connection a
// proxy or a sleeping laptop has silently dropped stays open but carries no beats (docs/api.md, "Live updates").

/** The server's heartbeat interval on GET /v1/events (docs/api.md). */
export const STREAM_HEARTBEAT_MS = 5_000;
/** How long the stream may be silent before it counts as not live: two intervals. */
export const SILENCE_LIMIT_MS = 2 * STREAM_HEARTBEAT_MS;

export interface Liveness {
  /** Something arrived (the opening comment, a heartbeat, an event): live, for another SILENCE_LIMIT_MS. */
  beat(): void;
  /** The stream ended or failed: not live. */
  end(): void;
}

/**
 * Tracks one stream's liveness; `onChange` hears each change, `onSilent` hears that the limit passed with no beat
 * (the caller drops the connection and connects again).
 * Example: `const live = watchLiveness(setLive, () => attempt.abort()); live.beat();`
 */
export function watchLiveness(onChange: (live: boolean) => void, onSilent: () => void, limitMs = SILENCE_LIMIT_MS): Liveness {
  let live = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const set = (next: boolean) => {
    if (next === live) return;
    live = next;
    onChange(next);
  };
  return {
    beat() {
      clearTimeout(timer);
      set(true);
      timer = setTimeout(() => {
        set(false);
        onSilent();
      }, limitMs);
    },
    end() {
      clearTimeout(timer);
      set(false);
    },
  };
}
