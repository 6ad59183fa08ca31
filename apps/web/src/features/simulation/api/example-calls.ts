// Reads a policy's stored example suite into the calls a simulation sends ({calls: {examples: suite}}),
// refusing it before sending with the line at fault, as the edit seam would.
import { type ExampleSuite, readExampleSuite } from '@tollgate/engine';

export type ExampleCalls = { ok: true; suite: ExampleSuite } | { ok: false; message: string };

/**
 * The suite in `text`, stored as `id`, or why it cannot be simulated.
 *
 * @example
 * readExampleCalls('policies/a.examples.json', '{"tools": [], "examples": []}') // { ok: false, message: 'policies/a.examples.json has no examples yet ...' }
 */
export function readExampleCalls(id: string, text: string): ExampleCalls {
  const read = readExampleSuite(text);
  if (!read.ok) {
    const [first] = read.problems;
    const line = first?.line !== undefined ? `line ${first.line}: ` : '';
    const more = read.problems.length > 1 ? ` (and ${read.problems.length - 1} more)` : '';
    return { ok: false, message: `${id} does not read: ${line}${first?.code}: ${first?.message}${more}. Fix it in the policy's editor.` };
  }
  if (read.suite.examples.length === 0) {
    return { ok: false, message: `${id} has no examples yet: add some in the policy's editor.` };
  }
  return { ok: true, suite: read.suite };
}
