// tollgate policy evaluate: one call's decision. Exit 0 whatever the decision, 1 invalid document, 2 unreadable.
import { CompiledPolicy, compileTool, evaluatePolicy, type PolicyDocument, type ToolBinding } from '@tollgate/engine/policy';
import { formatDiagnostic } from '@tollgate/engine/source';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK, refusedInput } from '../io.ts';
import { type ParsedOptions, required } from '../options.ts';
import { readJsonFile } from '../read-input.ts';
import { loadMembers, loadPolicy } from './load-policy.ts';

export function policyEvaluate(file: string, options: ParsedOptions, io: CliIo): number {
  const toolFile = required(options.tool, 'tool');
  const argsFile = required(options.args, 'args');
  const members = loadMembers(options.members);
  // Approvers are resolved at decision time, so the members list never refuses the document here.
  const loaded = loadPolicy(file);
  const tool = readJsonFile(toolFile);
  const args = readJsonFile(argsFile);
  const duplicate = args.diagnostics.find((d) => d.code === 'DUPLICATE_MEMBER');
  if (duplicate) throw refusedInput(argsFile, [duplicate]);
  if (args.value === null || typeof args.value !== 'object' || Array.isArray(args.value)) {
    throw new CliError('INVALID_ARGUMENTS', `${argsFile}: INVALID_ARGUMENTS: a call's arguments are a JSON object`);
  }
  if (!loaded.valid) {
    for (const e of loaded.errors) io.stderr.write(`${formatDiagnostic(file, e)}\n`);
    io.stderr.write(`${file}: invalid, so it decides nothing\n`);
    return EXIT_INVALID;
  }
  const policy = new CompiledPolicy(loaded.document as PolicyDocument);
  const compiledTool = compileTool(tool.value as ToolBinding);
  for (const p of compiledTool.problems) io.stderr.write(`${formatDiagnostic(toolFile, p)}\n`);
  const d = evaluatePolicy(policy, compiledTool, args.value, members ? { members } : {});
  if (options.json) {
    const out = {
      decision: d.decision,
      rule: d.rule,
      code: d.code,
      approvers: d.approvers,
      approval: d.approval,
      explanation: d.explanation,
    };
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const by = d.rule ? `rule ${d.rule}` : (d.code ?? 'default');
    io.stdout.write(`${d.decision} (${by}${d.rule && d.code ? `, ${d.code}` : ''})\n`);
    io.stdout.write(`why: ${d.explanation.summary}\n`);
    if (d.approvers) io.stdout.write(`approvers: ${d.approvers.join(', ')}\n`);
    if (d.approval) io.stdout.write(`approval open for ${d.approval.ttl_seconds} s, until ${d.approval.expires_at}\n`);
    for (const m of d.explanation.fail_closed)
      io.stdout.write(`fail closed: ${m.rule} (${m.effect}) matched because of ${m.reasons.join(', ')}\n`);
  }
  return EXIT_OK;
}
