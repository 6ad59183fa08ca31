// The direct lane's answers written together once the event loop has read every request that was ready in its turn
// (docs/performance.md, "Answers written at the turn's end"). Written one by one, as each call is decided, nearly
// every answer found its client asleep, and waking it (on loopback, from inside the answer's write) cost the event
// loop more than any step of the gate's own; written back to back, the first answer wakes the client and the rest
// find it awake. The check phase (setImmediate) runs after the poll phase's reads and their promises, so a call whose
// decision finished in this turn is answered in this turn, and a lone call at once.
import type { ServerResponse } from 'node:http';

/** The most answers that wait for the turn's end: the sixteenth is written at once with those before it. */
export const MOST_WAITING = 16;

/** Answers waiting for the turn's end, flat: the response, its headers (a list node:http takes whole), the body. */
let waiting: unknown[] = [];
/** The list written last, kept to be the next one: no array made a turn. */
let spare: unknown[] = [];
/** Writes of more than one answer together, since the process started. */
let sharedWrites = 0;

/** How many times more than one of the lane's answers have been written together: its tests' witness. */
export function answersWrittenTogether(): number {
  return sharedWrites;
}

/**
 * Writes `body` as the 200 of `res`, with `headers` and its length, at the end of this turn of the event loop.
 *
 * @example
 * answerAtTurnEnd(res, ['content-type', 'application/json'], '{"decision":"allow"}');
 */
export function answerAtTurnEnd(res: ServerResponse, headers: readonly string[], body: string): void {
  waiting.push(res, headers, body);
  if (waiting.length === 3) setImmediate(writeWaiting);
  // A turn that read many calls does not hold its first answers until its last is decided: a client woken once
  // for sixteen answers costs about what it costs woken once for all.
  else if (waiting.length === 3 * MOST_WAITING) writeWaiting();
}

function writeWaiting(): void {
  // An answer added while these are written (none is: an answer's write decides nothing) waits for the next write.
  const batch = waiting;
  waiting = spare;
  spare = batch;
  if (batch.length > 3) sharedWrites++;
  for (let i = 0; i < batch.length; i += 3) {
    writeAnswer(batch[i] as ServerResponse, batch[i + 1] as readonly string[], batch[i + 2] as string);
  }
  batch.length = 0;
}

function writeAnswer(res: ServerResponse, headers: readonly string[], body: string): void {
  // A client gone before its answer has no one to read it; its decision is recorded all the same.
  if (res.destroyed) return;
  try {
    res.writeHead(200, [...headers, 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
  } catch {
    // One answer that cannot be written costs its own connection, never the others'.
    res.destroy();
  }
}
