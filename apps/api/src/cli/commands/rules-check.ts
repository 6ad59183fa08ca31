// tollgate rules check: the tool check on one call. Exit 0 whatever the verdict, 1 rules refused, 2 unreadable.
import { type Catalogue, checkTool, layOverlay, type SessionCall } from '@tollgate/engine';
import type { Diagnostic } from '@tollgate/engine/source';
import { type CliIo, EXIT_INVALID, EXIT_OK, refusedInput } from '../io.ts';
import { type ParsedOptions, required } from '../options.ts';
import { readJsonFile } from '../read-input.ts';
import { compileRulesFile, loadCatalogue, printRefusal } from './load-rules.ts';

const CALL_MEMBERS = ['tool', 'arguments', 'contexts', 'history', 'confirmed'];

export function rulesCheck(file: string, options: ParsedOptions, io: CliIo): number {
  const callFile = required(options.call, 'call');
  const catalogue = loadCatalogue(options.catalogue);
  const input = readJsonFile(callFile);
  const call = readCall(
    callFile,
    input.value,
    input.diagnostics.filter((d) => d.code === 'DUPLICATE_MEMBER'),
  );
  const compiled = compileRulesFile(file, catalogue);
  if (!compiled.ok) {
    printRefusal(file, compiled, io);
    return EXIT_INVALID;
  }
  // Without a catalogue, the called tool stands alone with no declarations of its own.
  const base: Catalogue = catalogue ?? { tools: [{ name: call.tool, action: 'uncatalogued', kind: 'write' }] };
  const verdict = checkTool({
    rulebook: compiled.rulebook,
    catalogue: layOverlay(base, compiled.overlay),
    call: { tool: call.tool, arguments: call.arguments },
    contexts: call.contexts,
    history: call.history,
    confirmed: call.confirmed,
  });
  const out =
    verdict.verdict === 'allow'
      ? { verdict: 'allow', rule: null, reason: null }
      : verdict.verdict === 'refuse'
        ? { verdict: 'refuse', rule: verdict.rule, reason: verdict.reason, code: verdict.code }
        : { verdict: 'confirm', rule: verdict.rule, reason: 'a person confirms each call', confirmation: verdict.confirmation };
  if (options.json) io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  else if (out.verdict === 'confirm') io.stdout.write(`confirm (rule ${out.rule}): ask "${out.confirmation}"\n`);
  else io.stdout.write(`${out.verdict}${out.rule ? ` (rule ${out.rule})` : ''}${out.reason ? `: ${out.reason}` : ''}\n`);
  return EXIT_OK;
}

interface CallFile {
  tool: string;
  arguments: unknown;
  contexts: Record<string, unknown>;
  history: SessionCall[];
  confirmed: boolean;
}

function readCall(file: string, value: unknown, duplicates: Diagnostic[]): CallFile {
  const problems = [...duplicates];
  const fail = (message: string) => problems.push({ code: 'INVALID_CALL', severity: 'error', message });
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject) fail('a call is {"tool", "arguments", "contexts"?, "history"?, "confirmed"?}');
  const v = (isObject ? value : {}) as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!CALL_MEMBERS.includes(key)) fail(`unknown member "${key}"`);
  if (typeof v.tool !== 'string' || v.tool === '') fail('"tool" names the called tool');
  if (v.arguments !== undefined && (v.arguments === null || typeof v.arguments !== 'object' || Array.isArray(v.arguments)))
    fail('"arguments" is an object');
  if (v.contexts !== undefined && (v.contexts === null || typeof v.contexts !== 'object' || Array.isArray(v.contexts)))
    fail('"contexts" is an object of context names and true/false');
  if (v.history !== undefined) {
    if (!Array.isArray(v.history)) fail('"history" is a list of {"tool", "arguments", "result"}');
    else
      v.history.forEach((h, i) => {
        if (h === null || typeof h !== 'object' || typeof (h as { tool?: unknown }).tool !== 'string')
          fail(`history item ${i} needs a "tool"`);
      });
  }
  if (v.confirmed !== undefined && typeof v.confirmed !== 'boolean') fail('"confirmed" is true or false');
  if (problems.length > 0) throw refusedInput(file, problems);
  return {
    tool: v.tool as string,
    arguments: v.arguments ?? {},
    contexts: (v.contexts ?? {}) as Record<string, unknown>,
    history: (v.history ?? []) as SessionCall[],
    confirmed: v.confirmed === true,
  };
}
