// The leave guard: asked only while some page holds unsaved text, and a released hold is never asked again.
import { describe, expect, it } from 'vitest';
import { hasUnsavedText, holdLeave, LEAVE_QUESTION, mayLeave } from './leave-guard.ts';

/** An answer to the question that records it was asked. */
const answer = (asked: string[], leave: boolean) => (question: string) => {
  asked.push(question);
  return leave;
};

describe('mayLeave', () => {
  it('lets a page go without asking when nothing is unsaved', () => {
    const asked: string[] = [];
    const release = holdLeave(() => false);
    expect(mayLeave(answer(asked, false))).toBe(true);
    expect(asked).toEqual([]);
    release();
  });

  it('asks while any hold has unsaved text, and follows the answer', () => {
    let dirty = true;
    const releaseClean = holdLeave(() => false);
    const releaseDirty = holdLeave(() => dirty);
    const asked: string[] = [];
    expect(mayLeave(answer(asked, false))).toBe(false);
    expect(mayLeave(answer(asked, true))).toBe(true);
    expect(asked).toEqual([LEAVE_QUESTION, LEAVE_QUESTION]);
    dirty = false;
    expect(hasUnsavedText()).toBe(false);
    dirty = true;
    releaseDirty();
    expect(hasUnsavedText()).toBe(false);
    releaseClean();
  });
});
