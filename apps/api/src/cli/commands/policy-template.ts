// tollgate policy template list|show|create: ready-made documents for common agents (drafts only).
import { createFromTemplate, getTemplate, listTemplates } from '@tollgate/engine/policy';
import { formatDiagnostic } from '@tollgate/engine/source';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { one, type ParsedOptions } from '../options.ts';
import { writeOutputFile } from './write-file.ts';

export function policyTemplate(rest: string[], options: ParsedOptions, io: CliIo): number {
  const [verb, ...names] = rest;
  switch (verb) {
    case 'list':
      return list(options, io);
    case 'show':
      return show(one(names, 'NAME'), options, io);
    case 'create':
      return create(one(names, 'NAME'), options, io);
    default:
      throw new CliError('USAGE', `expected template list, show NAME or create NAME; got ${verb ?? 'nothing'}`);
  }
}

function list(options: ParsedOptions, io: CliIo): number {
  const templates = listTemplates();
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify(
        templates.map(({ name, title, description }) => ({ name, title, description })),
        null,
        2,
      )}\n`,
    );
    return EXIT_OK;
  }
  const width = Math.max(...templates.map((t) => t.name.length));
  for (const t of templates) io.stdout.write(`${t.name.padEnd(width)}  ${t.title}: ${t.description}\n`);
  return EXIT_OK;
}

function show(name: string, options: ParsedOptions, io: CliIo): number {
  const template = getTemplate(name);
  if (!template)
    throw new CliError('UNKNOWN_TEMPLATE', `UNKNOWN_TEMPLATE: no template "${name}"; see tollgate policy template list`, EXIT_INVALID);
  const draft = createFromTemplate(name, {});
  if (!draft.ok) throw new CliError('TEMPLATE_DEFAULTS', draft.errors.map((e) => formatDiagnostic(name, e)).join('\n'), 70);
  if (options.json) {
    const { title, description, parameters } = template;
    const { document, examples, notes, delegation } = draft;
    io.stdout.write(`${JSON.stringify({ name, title, description, parameters, document, notes, delegation, examples }, null, 2)}\n`);
    return EXIT_OK;
  }
  io.stdout.write(`${template.title} (${template.name})\n${template.description}\n\nParameters:\n`);
  for (const p of template.parameters) io.stdout.write(`  ${p.name} (${p.type}, default ${p.default}): ${p.description}\n`);
  io.stdout.write('\nRules (with the defaults):\n');
  for (const [id, note] of Object.entries(draft.notes)) io.stdout.write(`  ${id}: ${note}\n`);
  io.stdout.write(`\nDelegation hint: permissions ${draft.delegation.permissions.join(', ')}`);
  if (draft.delegation.max_amount)
    io.stdout.write(`; at most ${draft.delegation.max_amount.value} ${draft.delegation.max_amount.currency}`);
  io.stdout.write(`\n\nExamples: ${draft.examples.examples.length} calls with expected outcomes (create --examples-out FILE saves them)\n`);
  return EXIT_OK;
}

function create(name: string, options: ParsedOptions, io: CliIo): number {
  const params: Record<string, string> = {};
  for (const pair of options.param ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError('USAGE', `--param takes KEY=VALUE, got "${pair}"`);
    const key = pair.slice(0, eq);
    if (Object.hasOwn(params, key)) throw new CliError('USAGE', `--param ${key} is given twice`);
    params[key] = pair.slice(eq + 1);
  }
  const draft = createFromTemplate(name, params);
  if (!draft.ok) {
    for (const e of draft.errors) io.stderr.write(`${formatDiagnostic(name, e)}\n`);
    return EXIT_INVALID;
  }
  const documentText = `${JSON.stringify(draft.document, null, 2)}\n`;
  if (options.out) {
    writeOutputFile(options.out, documentText, options.force ?? false);
    io.stderr.write(`wrote ${options.out} (a draft: review it, compare its actions with your tools', then activate)\n`);
  } else io.stdout.write(documentText);
  if (options['examples-out']) {
    writeOutputFile(options['examples-out'], `${JSON.stringify(draft.examples, null, 2)}\n`, options.force ?? false);
    io.stderr.write(
      `wrote ${options['examples-out']}: run it with tollgate policy test ${options.out ?? 'FILE'} --examples ${options['examples-out']}\n`,
    );
  }
  return EXIT_OK;
}
