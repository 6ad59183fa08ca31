// The words and the diff text of a mapped tool's upstream definition (docs/mcp.md, "Pinned tool definitions").
import { describe, expect, it } from 'vitest';
import {
  definitionDescription,
  definitionStateWords,
  definitionText,
  definitionToReview,
  type UpstreamDefinition,
} from './definition-state.ts';

const DEFINITION = { description: 'Refunds an order.', inputSchema: { type: 'object' }, name: 'refund' };
const seen = { digest: 'b'.repeat(64), definition: DEFINITION, seen_at: '2026-12-02T08:00:00.000Z' };
const upstream = (over: Partial<UpstreamDefinition>): UpstreamDefinition => ({
  server: 'recorder',
  tool: 'refund',
  state: 'changed',
  seen,
  pinned: null,
  ...over,
});

describe('definitionStateWords', () => {
  it('says whether a definition that is not the pinned one was ever authorized', () => {
    expect(definitionStateWords('changed', true)).toBe('changed since authorized');
    expect(definitionStateWords('changed', false)).toBe('not authorized yet');
  });
  it('says authorized and not listed yet whatever was pinned', () => {
    for (const pinned of [true, false, null]) {
      expect(definitionStateWords('authorized', pinned)).toBe('authorized');
      expect(definitionStateWords('unseen', pinned)).toBe('not listed yet: refresh');
    }
  });
  it('keeps both readings of changed where the pin is not known (the Upstreams page)', () => {
    expect(definitionStateWords('changed', null)).toBe('changed or not authorized yet');
  });
});

describe('definitionToReview', () => {
  it('offers a listed definition that is not the pinned one for review', () => {
    expect(definitionToReview(upstream({}))).toBe(true);
    expect(definitionToReview(upstream({ pinned: { digest: 'a'.repeat(64), definition: { name: 'refund' } } }))).toBe(true);
  });
  it('offers nothing for an authorized definition, an unseen tool or a tool without upstream', () => {
    expect(definitionToReview(upstream({ state: 'authorized', pinned: { digest: seen.digest, definition: DEFINITION } }))).toBe(false);
    expect(definitionToReview(upstream({ state: 'unseen', seen: null }))).toBe(false);
    expect(definitionToReview(null)).toBe(false);
  });
});

describe('definitionText', () => {
  it('is the definition as two-space JSON, its members in the order given, and empty when there is none', () => {
    expect(definitionText(DEFINITION)).toBe(
      '{\n  "description": "Refunds an order.",\n  "inputSchema": {\n    "type": "object"\n  },\n  "name": "refund"\n}',
    );
    expect(definitionText(null)).toBe('');
    expect(definitionText(undefined)).toBe('');
  });
});

describe('definitionDescription', () => {
  it('reads the description, or nothing when it is absent or not text', () => {
    expect(definitionDescription(DEFINITION)).toBe('Refunds an order.');
    expect(definitionDescription({ name: 'x' })).toBe('');
    expect(definitionDescription({ name: 'x', description: 3 })).toBe('');
  });
});
