// A running policy's example suite run against it, for the documents list: an example that does not hold is a
// problem of the policy, as `tollgate verify` counts it (EXAMPLE_FAILED and EXAMPLE_NOT_EVALUABLE, docs/documents.md).
import type { z } from '@hono/zod-openapi';
import { CompiledPolicy, type PolicyDocument, readExampleSuite, runPolicyTests } from '@tollgate/engine/policy';
import { readJsonText } from '@tollgate/engine/source';
import type { ProblemSchema } from './schemas.ts';

type Problem = z.infer<typeof ProblemSchema>;

/** An outcome as a problem names it: `deny, rule never-payouts`. */
function outcomeText(o: { decision: string; rule?: string | null; code?: string | null }): string {
  return [o.decision, o.rule ? `rule ${o.rule}` : '', o.code ?? ''].filter((part) => part !== '').join(', ');
}

/**
 * The problems of a sound policy's running text against its running example suite's text; a suite that does not
 * read has its own problems on its own row, so it adds none here.
 * Example: `exampleProblems(policyText, suiteText)` is `[{source:'document', code:'EXAMPLE_FAILED', ...}]` for one failing example.
 */
export function exampleProblems(policyText: string, suiteText: string): Problem[] {
  const policy = readJsonText(policyText);
  const suite = readExampleSuite(suiteText);
  if (!policy.ok || !suite.ok) return [];
  let report: ReturnType<typeof runPolicyTests>;
  try {
    report = runPolicyTests(new CompiledPolicy(policy.value as PolicyDocument), suite.suite);
  } catch {
    // A policy that does not compile is reported by its validation already.
    return [];
  }
  const problems: Problem[] = [];
  for (const r of report.results) {
    if (r.status === 'fail') {
      const got = r.actual ? outcomeText(r.actual) : 'nothing';
      problems.push({
        source: 'document',
        code: 'EXAMPLE_FAILED',
        severity: 'error',
        message: `${r.name}: expected ${outcomeText(r.expected)}, got ${got}`,
      });
    } else if (r.status === 'not_evaluable') {
      const message = `${r.name}: ${r.code}: the decision depends on arguments the example lacks`;
      problems.push({ source: 'document', code: 'EXAMPLE_NOT_EVALUABLE', severity: 'error', message });
    }
  }
  return problems;
}
