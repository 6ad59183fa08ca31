// A NOTIFY on the events channel is text any client of the database can send (postgres/cluster-events.ts): only a
// notice that reads exactly, from another node, naming an event of a known shape is delivered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readNotice } from '../src/server/postgres/cluster-events.ts';

const OTHER = 'node-b';
describe('readNotice', () => {
  it('delivers another node’s approval and trial events, and nothing else', () => {
    const approval = { type: 'approval', id: 'a-1', status: 'approved' };
    expect(readNotice(JSON.stringify({ origin: OTHER, event: approval }), 'node-a')).toEqual(approval);
    const trial = { type: 'trial', document: 'p.policy.json', candidate: 2, running: true, calls: 3, sampled: 1, agreed: 1, differed: 0 };
    expect(readNotice(JSON.stringify({ origin: OTHER, event: trial }), 'node-a')).toEqual(trial);
    for (const payload of [
      JSON.stringify({ origin: 'node-a', event: approval }),
      '{"origin": "node-b", "event": {"type": "approval", "id": "a-1", "status": "approved", "id": "a-2"}}',
      '{"origin": "node-b", "event": {"type": "trial", "document": "p", "candidate": 2.0, "running": true, "calls": 1, "sampled": 0, "agreed": 0, "differed": 0}}',
      JSON.stringify({ origin: OTHER, event: { type: 'document', id: 'x', sequence: 1 } }),
      JSON.stringify({ origin: OTHER, event: { type: 'approval', id: 1, status: 'approved' } }),
      'not json',
      '[]',
    ]) {
      expect(readNotice(payload, 'node-a'), payload).toBeUndefined();
    }
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(() => readNotice(text, 'node-a')).not.toThrow();
      }),
    );
  });
});
