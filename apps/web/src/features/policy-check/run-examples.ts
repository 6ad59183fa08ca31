// Runs a policy's example calls against the text being edited (engine runPolicyTests), for the live panel.
import { compilePolicy, type ExampleSuite, readJsonText, runPolicyTests, type TestReport, validateExampleSuite } from '@tollgate/engine';

export type ExamplesRun =
  /** No suite written yet. */
  | { state: 'empty' }
  /** The suite itself does not read; each line says where and why. */
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
  let suite: unknown;
  try {
    suite = JSON.parse(suiteText);
  } catch (error) {
    return { state: 'suite_invalid', problems: [error instanceof Error ? error.message : 'the suite is not JSON'] };
  }
  const problems = validateExampleSuite(suite);
  if (problems.length > 0) return { state: 'suite_invalid', problems: problems.map((p) => `${p.path || '/'}: ${p.message}`) };
  const read = readJsonText(policyText);
  if (!read.ok || read.diagnostics.length > 0) return { state: 'policy_invalid' };
  const compiled = compilePolicy(read.value);
  if (!compiled.ok) return { state: 'policy_invalid' };
  return { state: 'ran', report: runPolicyTests(compiled.policy, suite as ExampleSuite) };
}
