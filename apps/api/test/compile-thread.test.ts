// The compile thread answers each of its tasks exactly as the event loop would: the worker runs in a thread of its
// own (compile.worker.ts, through worker-bootstrap.mjs), so each task runs here with an inline fallback that fails,
// and a task the thread cannot answer (a thread that cannot start, say) fails the test rather than quietly running
// inline.
import { analyzeImpact, compileRules, validateDocument } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { INLINE_MAX_CHARS, offLoop, type Task } from '../src/server/compile-thread.ts';

/** A sheet over the inline limit; `refused` adds a second rule for one action, so it does not compile. */
function bigSheet(refused: boolean): string {
  let text = 'rules:\n';
  for (let i = 0; text.length <= INLINE_MAX_CHARS; i++) text += `  - action: tool_${i}\n    requires: [approved_${i % 7}]\n`;
  return refused ? `${text}  - action: tool_0\n    never: true\n` : text;
}

function onThread<T>(task: Task): Promise<T> {
  return offLoop<T>(INLINE_MAX_CHARS + 1, task, () => {
    throw new Error('the compile thread did not answer, so the task ran inline');
  });
}

describe('the compile thread', () => {
  it('validates a big sheet, refused or not, with the problems the event loop finds', async () => {
    for (const refused of [true, false]) {
      const text = bigSheet(refused);
      const id = 'sheets/big.rules.yaml';
      const problems = await onThread({ validate: { id, text } });
      expect(problems).toEqual(validateDocument(id, text).problems);
      expect((problems as unknown[]).length > 0).toBe(refused);
    }
  });

  it('weighs an edit and compiles rules as the event loop does', async () => {
    const running = bigSheet(false);
    const text = `${running}  - action: extra_tool\n    never: true\n`;
    expect(await onThread({ impact: { kind: 'sheet', running, text } })).toEqual(analyzeImpact('sheet', running, text, {}));
    expect(await onThread({ rules: { text, kind: 'sheet', id: 'sheets/big.rules.yaml' } })).toEqual(
      compileRules(text, 'sheet', undefined, 'sheets/big.rules.yaml'),
    );
  });
});
