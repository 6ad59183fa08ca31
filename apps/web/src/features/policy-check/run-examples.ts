// Runs a policy's example calls against the text being edited (engine runPolicyTests), for the live panel.
import { compilePolicy, type Diagnostic, readExampleSuite, readJsonText, runPolicyTests, type TestReport } from '@tollgate/engine';

export type ExamplesRun =
  /** No suite written yet. */
  | { state: 'empty' }
  /** The suite itself does not read; each problem says on which line, at which path, and why. */
  | { state: 'suite_invalid'; problems: string[] }
  /** The policy has errors, so nothing can be decided until they are fixed. */
  | { state: 'policy_invalid' }
  | { state: 'ran'; report: TestReport };

/**
 * Decides every example of `suiteText` with the policy in `policyText`.
 *
 * @example
 * runExamples(policy, '{"tools": [{"name": "t", "action": "a.b"}], "examples": []}') // { state: 'ran', report: { passed: 0, ... } }
 */
export function runExamples(policyText: string, suiteText: string): ExamplesRun {
  if (suiteText.trim() === '') return { state: 'empty' };
  // The engine's reader of stored suites, so the panel refuses exactly what the edit seam refuses.
  const suite = readExampleSuite(suiteText);
  if (!suite.ok) return { state: 'suite_invalid', problems: suite.problems.map(describeProblem) };
  const read = readJsonText(policyText);
  if (!read.ok || read.diagnostics.length > 0) return { state: 'policy_invalid' };
  const compiled = compilePolicy(read.value);
  if (!compiled.ok) return { state: 'policy_invalid' };
  return { state: 'ran', report: runPolicyTests(compiled.policy, suite.suite) };
}

/** Example: `Line 4, /examples/0/tool: INVALID_VALUE: name one of the suite's tools`. */
function describeProblem(problem: Diagnostic): string {
  const line = problem.line !== undefined ? `Line ${problem.line}` : 'The suite';
  const path = problem.path ? `, ${problem.path}` : '';
  return `${line}${path}: ${problem.code}: ${problem.message}`;
}
