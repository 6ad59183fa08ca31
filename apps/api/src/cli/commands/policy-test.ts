// tollgate policy test: runs example calls; exit 0 when every expected outcome holds, 1 otherwise.
import { CompiledPolicy, type PolicyDocument, readExampleSuite, runPolicyTests } from '@tollgate/engine/policy';
import { formatDiagnostic } from '@tollgate/engine/source';
import { type CliIo, EXIT_INVALID, EXIT_OK, refusedInput } from '../io.ts';
import { type ParsedOptions, required } from '../options.ts';
import { MAX_DOCUMENT_BYTES, readTextFile } from '../read-input.ts';
import { loadPolicy } from './load-policy.ts';

export function policyTest(file: string, options: ParsedOptions, io: CliIo): number {
  const examplesFile = required(options.examples, 'examples');
  const loaded = loadPolicy(file);
  // The reader of stored policies/*.examples.json documents too, so a file and a document read alike.
  const examples = readExampleSuite(readTextFile(examplesFile, MAX_DOCUMENT_BYTES));
  if (!examples.ok) {
    const problems = examples.problems;
    throw refusedInput(examplesFile, problems);
  }
  if (!loaded.valid) {
    for (const e of loaded.errors) io.stderr.write(`${formatDiagnostic(file, e)}\n`);
    io.stderr.write(`${file}: invalid, so no example can run\n`);
    return EXIT_INVALID;
  }
  const report = runPolicyTests(new CompiledPolicy(loaded.document as PolicyDocument), examples.suite);
  if (options.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const r of report.results) {
      const expected = describeOutcome(r.expected);
      if (r.status === 'pass') io.stdout.write(`PASS ${r.name}: ${expected}\n`);
      else if (r.status === 'not_evaluable')
        io.stdout.write(`NOT EVALUABLE ${r.name}: ${r.code}: its arguments are gone and the decision depends on them\n`);
      else io.stdout.write(`FAIL ${r.name}: expected ${expected}, got ${r.actual ? describeOutcome(r.actual) : 'nothing'}\n`);
    }
    io.stdout.write(`${report.passed} examples passed, ${report.failed} failed, ${report.not_evaluable} not evaluable\n`);
  }
  return report.failed === 0 && report.not_evaluable === 0 ? EXIT_OK : EXIT_INVALID;
}

/** An outcome as the CLI prints it: `deny, rule never-payouts`. */
export function describeOutcome(o: { decision: string; rule?: string | null; code?: string | null }): string {
  const parts = [o.decision];
  if (o.rule) parts.push(`rule ${o.rule}`);
  if (o.code) parts.push(o.code);
  return parts.join(', ');
}
