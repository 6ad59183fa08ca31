// Who wrote a version, as the review panel tells its author they may not activate it under four eyes.
import { describe, expect, it } from 'vitest';
import { writtenBy } from './get-review-queue.ts';
import type { DocumentVersion } from './types.ts';

const version = (kind: DocumentVersion['author']['kind'], label: string) => ({ author: { kind, label } }) as DocumentVersion;

describe('writtenBy', () => {
  it("is a member's own person, developer or model edit", () => {
    for (const kind of ['person', 'developer', 'model'] as const) expect(writtenBy(version(kind, 'adam'), 'adam')).toBe(true);
  });
  it('is not another member’s, a hand edit’s or the system’s, nor anyone’s while the member is unknown', () => {
    expect(writtenBy(version('person', 'olivia'), 'adam')).toBe(false);
    expect(writtenBy(version('external', 'adam'), 'adam')).toBe(false);
    expect(writtenBy(version('system', 'adam'), 'adam')).toBe(false);
    expect(writtenBy(version('person', 'adam'), null)).toBe(false);
  });
});
