// tollgate rules equivalent A B: exit 0 when both compile to one rulebook, 1 naming the first difference.
import { compareRulebooks } from '@tollgate/engine';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { compileRulesFile, printRefusal } from './load-rules.ts';

export function rulesEquivalent(files: string[], io: CliIo): number {
  if (files.length !== 2) throw new CliError('USAGE', `expected two files, A and B; got ${files.length}`);
  const [a, b] = files as [string, string];
  const left = compileRulesFile(a);
  const right = compileRulesFile(b);
  if (!left.ok || !right.ok) {
    if (!left.ok) printRefusal(a, left, io);
    if (!right.ok) printRefusal(b, right, io);
    io.stdout.write('not compared: a file was refused\n');
    return EXIT_INVALID;
  }
  const result = compareRulebooks(left.rulebook, right.rulebook);
  if (result.equal) {
    io.stdout.write(`equivalent: ${a} and ${b} compile to one rulebook\n`);
    return EXIT_OK;
  }
  io.stdout.write(`not equivalent: first difference at ${result.path}: ${result.difference}\n`);
  return EXIT_INVALID;
}
