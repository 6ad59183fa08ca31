// Unit tests of the hand-written SSE parser.
import { describe, expect, it } from 'vitest';
import { parseEventBlock, splitBlocks } from './event-stream.ts';

describe('parseEventBlock', () => {
  it('reads the event name and its data', () => {
    expect(parseEventBlock('event: approval\ndata: {"id":"a"}')).toEqual({ event: 'approval', data: '{"id":"a"}' });
  });
  it('ignores comments such as heartbeats', () => {
    expect(parseEventBlock(': heartbeat')).toBeNull();
  });
  it('joins data lines with newlines', () => {
    expect(parseEventBlock('data: a\ndata: b')).toEqual({ event: 'message', data: 'a\nb' });
  });
});

describe('splitBlocks', () => {
  it('keeps the unfinished block for the next chunk', () => {
    expect(splitBlocks('event: a\ndata: 1\n\nevent: b\nda')).toEqual({ blocks: ['event: a\ndata: 1'], rest: 'event: b\nda' });
  });
});
