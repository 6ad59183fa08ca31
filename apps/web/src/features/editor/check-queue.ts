// Numbers each text the editor holds and keeps at most one check in flight: while one runs, only the
// newest text waits, and a reply for any text but the newest is dropped as stale.
import type { LintCatalogue } from '@tollgate/engine';
import type { CheckReply, CheckRequest } from './check-protocol.ts';

/** Pause before sending a text to an idle checker: long enough to merge changes made in one go, far under a frame. */
export const CHECK_DELAY_MS = 4;

export interface CheckQueue {
  /** Records a new text and returns its number; it is sent after the delay, or when the current check returns. */
  submit(id: string, text: string, catalogue: LintCatalogue | null | undefined): number;
  /** Takes a reply: returns it when it answers the newest text, undefined when a newer text has replaced it. */
  receive(reply: CheckReply): CheckReply | undefined;
  /** Stops the timer; nothing more is sent. */
  dispose(): void;
}

/**
 * @example
 * const queue = createCheckQueue((request) => worker.postMessage(request));
 * worker.onmessage = (e) => { const fresh = queue.receive(e.data); if (fresh) show(fresh); };
 * queue.submit('sheets/a.rules.yaml', text, catalogue);
 */
export function createCheckQueue(send: (request: CheckRequest) => void, delayMs = CHECK_DELAY_MS): CheckQueue {
  let latest = 0;
  let waiting: CheckRequest | null = null;
  let inFlight = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The catalogue travels only when it changes; the checker keeps the last one it was sent.
  let sentCatalogue: LintCatalogue | null | undefined;
  let catalogueSent = false;

  const flush = () => {
    timer = undefined;
    if (waiting === null || inFlight) return;
    const request = waiting;
    waiting = null;
    inFlight = true;
    send(request);
  };

  return {
    submit(id, text, catalogue) {
      latest += 1;
      const request: CheckRequest = { seq: latest, id, text };
      if (!catalogueSent || catalogue !== sentCatalogue) {
        request.catalogue = catalogue ?? null;
        sentCatalogue = catalogue;
        catalogueSent = true;
      } else if (waiting?.catalogue !== undefined) {
        // The waiting text carried a new catalogue and is replaced unsent: this one carries it instead.
        request.catalogue = waiting.catalogue;
      }
      waiting = request;
      if (!inFlight && timer === undefined) timer = setTimeout(flush, delayMs);
      return latest;
    },
    receive(reply) {
      inFlight = false;
      if (waiting !== null && timer === undefined) flush();
      return reply.seq === latest ? reply : undefined;
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      waiting = null;
    },
  };
}
