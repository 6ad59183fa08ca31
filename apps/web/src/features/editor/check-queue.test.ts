// The check queue: one check in flight, the newest text waiting, stale replies dropped, the catalogue sent once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckReply, CheckRequest } from './check-protocol.ts';
import { createCheckQueue } from './check-queue.ts';

const ID = 'sheets/a.rules.yaml';
const CATALOGUE = { tools: [{ name: 'send_payout', kind: 'write' as const }] };

function reply(seq: number): CheckReply {
  return { seq, check: { kind: 'sheet', problems: [], summary: 'No problems' } };
}

describe('createCheckQueue', () => {
  let sent: CheckRequest[];
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
  });
  afterEach(() => vi.useRealTimers());

  it('sends a text after the short delay and hands back its reply', () => {
    const queue = createCheckQueue((r) => sent.push(r), 8);
    expect(queue.submit(ID, 'a', CATALOGUE)).toBe(1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(8);
    expect(sent).toEqual([{ seq: 1, id: ID, text: 'a', catalogue: CATALOGUE }]);
    expect(queue.receive(reply(1))).toEqual(reply(1));
  });

  it('merges texts typed within the delay into one check of the newest', () => {
    const queue = createCheckQueue((r) => sent.push(r), 8);
    queue.submit(ID, 'a', CATALOGUE);
    queue.submit(ID, 'ab', CATALOGUE);
    vi.advanceTimersByTime(8);
    expect(sent.map((r) => [r.seq, r.text, r.catalogue])).toEqual([[2, 'ab', CATALOGUE]]);
  });

  it('keeps one check in flight, sends only the newest waiting text, and drops the stale reply', () => {
    const queue = createCheckQueue((r) => sent.push(r), 0);
    queue.submit(ID, 'a', CATALOGUE);
    vi.advanceTimersByTime(0);
    queue.submit(ID, 'ab', CATALOGUE);
    queue.submit(ID, 'abc', CATALOGUE);
    vi.advanceTimersByTime(50);
    expect(sent.map((r) => r.text)).toEqual(['a']);
    // The reply for 'a' is stale (two newer texts exist); 'abc' goes out at once, 'ab' never does.
    expect(queue.receive(reply(1))).toBeUndefined();
    expect(sent.map((r) => [r.seq, r.text])).toEqual([
      [1, 'a'],
      [3, 'abc'],
    ]);
    expect(queue.receive(reply(3))).toEqual(reply(3));
  });

  it('sends the catalogue only when it changes, even when the text carrying it is replaced unsent', () => {
    const queue = createCheckQueue((r) => sent.push(r), 0);
    queue.submit(ID, 'a', CATALOGUE);
    vi.advanceTimersByTime(0);
    queue.receive(reply(1));
    queue.submit(ID, 'ab', CATALOGUE);
    vi.advanceTimersByTime(0);
    expect(sent[1]).not.toHaveProperty('catalogue');
    const other = { tools: [] };
    queue.submit(ID, 'ab', other);
    queue.submit(ID, 'abc', other);
    queue.receive(reply(2));
    expect(sent[2]).toMatchObject({ seq: 4, text: 'abc', catalogue: other });
  });

  it('sends nothing after dispose', () => {
    const queue = createCheckQueue((r) => sent.push(r), 8);
    queue.submit(ID, 'a', undefined);
    queue.dispose();
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([]);
  });
});
