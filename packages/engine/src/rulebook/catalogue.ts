// The catalogue: the tools an agent may call, YAML or JSON, validated with every problem's path and line
// (docs/documents.md, "Kinds"; docs/catalogue.md).
import { codeView } from '../codes/index.ts';
import { problem } from '../conditions/family.ts';
import { TOOL_NAME, validateToolBinding } from '../policy/tool.ts';
import type { AmountMapping } from '../policy/types.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { childPointer } from '../source/json-pointer.ts';
import { readJsonText } from '../source/json-text.ts';
import { placeProblems } from '../source/place-problems.ts';
import { DecimalNumber, readYamlText } from '../source/yaml-text.ts';
import { parseFrom, validateChecks } from './check.ts';
import type { ToolDeclarations } from './types.ts';

/** Every code a catalogue's problems carry, with when it occurs. Shared codes mean what they mean in policy@1. */
export const CATALOGUE_CODES = codeView('catalogue');

export type CatalogueCode = keyof typeof CATALOGUE_CODES;

export type ToolKind = 'read' | 'write';

/** One tool of a catalogue: its binding, its kind and what the catalogue declares about it. */
export interface CatalogueTool extends ToolDeclarations {
  name: string;
  action: string;
  kind: ToolKind;
  amount?: AmountMapping;
  description?: string;
  /** The upstream MCP server and tool a call of this tool is forwarded to (docs/catalogue.md). */
  upstream?: UpstreamTool;
}

/** A catalogue tool's mapping to a tool of a server of the upstreams document (mcp/servers.yaml). */
export interface UpstreamTool {
  server: string;
  tool: string;
}

/** What a catalogue is checked against beside its text: the upstreams document's server names, where it is known. */
export interface CatalogueOptions {
  upstreams?: ReadonlySet<string>;
}

export interface Catalogue {
  tools: CatalogueTool[];
}

export type CatalogueFormat = 'yaml' | 'json';

export type CatalogueResult = { ok: true; catalogue: Catalogue; problems: [] } | { ok: false; problems: Diagnostic[] };

const TOP_MEMBERS = ['tools'];
const TOOL_MEMBERS = [
  'name',
  'action',
  'kind',
  'amount',
  'description',
  'confirmation',
  'requires_confirmation',
  'after',
  'not_after',
  'at_most',
  'checks',
  'upstream',
];
const UPSTREAM_MEMBERS = ['server', 'tool'];
const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const MAX_TEXT = 500;

/**
 * The words a person is asked when a tool declares `requires_confirmation: true` without its own.
 *
 * @example
 * defaultConfirmation('close_account') // 'Confirm the call to close_account?'
 */
export function defaultConfirmation(name: string): string {
  return `Confirm the call to ${name}?`;
}

/**
 * The format a catalogue file is written in, from its name; undefined for any other extension.
 *
 * @example
 * catalogueFormatOf('catalogues/shop.yml') // 'yaml'
 */
export function catalogueFormatOf(fileName: string): CatalogueFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (lower.endsWith('.json')) return 'json';
  return undefined;
}

/**
 * Reads a catalogue from YAML or JSON text. Every problem has a path and, where the text places it, a
 * range (the nearest enclosing value's where the path names something absent); problems are in line order.
 *
 * @example
 * readCatalogue('tools:\n  - {name: refund_card, action: refund.issue, kind: write}\n', 'yaml')
 * // { ok: true, catalogue: { tools: [{ name: 'refund_card', action: 'refund.issue', kind: 'write' }] }, problems: [] }
 */
export function readCatalogue(text: string, format: CatalogueFormat, options: CatalogueOptions = {}): CatalogueResult {
  const read = format === 'yaml' ? readYamlText(text) : readJsonText(text);
  if (!read.ok) return { ok: false, problems: [{ ...read.diagnostic, path: '' }] };
  const problems = [...read.diagnostics];
  const catalogue = validateCatalogue(read.value, problems, options);
  if (catalogue !== undefined && problems.length === 0) return { ok: true, catalogue, problems: [] };
  return { ok: false, problems: placeProblems(problems, read.rangeOf) };
}

/**
 * Validates a catalogue already read into plain values; pushes every problem with its path and returns
 * the catalogue when there were none.
 *
 * @example
 * validateCatalogue({ tools: [{ name: 'x', action: 'a.b', kind: 'read' }] }, problems) // { tools: [...] }
 */
export function validateCatalogue(value: unknown, problems: Diagnostic[], options: CatalogueOptions = {}): Catalogue | undefined {
  const before = problems.length;
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', '', 'a catalogue is a mapping with a tools list, such as tools: [{name: refund_card, ...}]'));
    return undefined;
  }
  for (const key of Object.keys(value)) if (!TOP_MEMBERS.includes(key)) problems.push(unknown('', key, TOP_MEMBERS));
  if (value.tools === undefined) {
    problems.push(problem('MISSING_MEMBER', '', 'a catalogue needs tools, the list of tools an agent may call'));
    return undefined;
  }
  if (!Array.isArray(value.tools)) {
    problems.push(problem('INVALID_TYPE', '/tools', 'tools is a list of tools'));
    return undefined;
  }
  const tools: CatalogueTool[] = [];
  const names = new Map<string, number>();
  value.tools.forEach((raw, i) => {
    const path = childPointer('/tools', i);
    const tool = readTool(raw, path, problems, options);
    const name = isRecord(raw) && typeof raw.name === 'string' ? raw.name : undefined;
    if (name !== undefined) {
      const first = names.get(name);
      if (first !== undefined) {
        problems.push(
          problem('DUPLICATE_TOOL', `${path}/name`, `tool ${i} is named ${name}, as tool ${first} is; give each tool its own name`),
        );
      } else names.set(name, i);
    }
    if (tool) tools.push(tool);
  });
  value.tools.forEach((raw, i) => {
    if (isRecord(raw)) checkReferences(raw, childPointer('/tools', i), names, problems);
  });
  return problems.length === before ? { tools } : undefined;
}

function readTool(raw: unknown, path: string, problems: Diagnostic[], options: CatalogueOptions): CatalogueTool | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', path, 'a tool is a mapping such as {name: refund_card, action: refund.issue, kind: write}'));
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(raw)) if (!TOOL_MEMBERS.includes(key)) problems.push(unknown(path, key, TOOL_MEMBERS));
  const binding: Record<string, unknown> = {};
  for (const key of ['name', 'action', 'amount']) if (raw[key] !== undefined) binding[key] = raw[key];
  problems.push(...validateToolBinding(binding, path));
  if (raw.kind === undefined) problems.push(problem('MISSING_MEMBER', `${path}/kind`, 'a tool needs kind: read or write'));
  else if (raw.kind !== 'read' && raw.kind !== 'write') problems.push(problem('INVALID_VALUE', `${path}/kind`, 'kind is read or write'));
  const description = readText(raw.description, `${path}/description`, problems);
  const confirmation = readConfirmation(raw, path, problems);
  const after = readNames(raw.after, `${path}/after`, problems);
  const notAfter = readNames(raw.not_after, `${path}/not_after`, problems);
  if (raw.at_most !== undefined && !(Number.isSafeInteger(raw.at_most) && (raw.at_most as number) > 0)) {
    problems.push(
      problem('INVALID_VALUE', `${path}/at_most`, 'at_most is a positive integer: how many times the tool may run in a session'),
    );
  }
  const checks = raw.checks === undefined ? undefined : validateChecks(raw.checks, `${path}/checks`, problems);
  const upstream = raw.upstream === undefined ? undefined : readUpstreamTool(raw.upstream, `${path}/upstream`, problems, options);
  if (problems.length !== before) return undefined;
  const tool: CatalogueTool = { name: raw.name as string, action: raw.action as string, kind: raw.kind as ToolKind };
  if (raw.amount !== undefined) tool.amount = raw.amount as AmountMapping;
  if (description !== undefined) tool.description = description;
  if (confirmation !== undefined) tool.confirmation = confirmation;
  if (after !== undefined && after.length > 0) tool.after = after;
  if (notAfter !== undefined && notAfter.length > 0) tool.not_after = notAfter;
  if (raw.at_most !== undefined) tool.at_most = raw.at_most as number;
  if (checks !== undefined && checks.length > 0) tool.checks = checks;
  if (upstream !== undefined) tool.upstream = upstream;
  return tool;
}

/** `upstream: {server, tool}`: a server of mcp/servers.yaml (checked where the document is known) and its tool's name. */
function readUpstreamTool(raw: unknown, path: string, problems: Diagnostic[], options: CatalogueOptions): UpstreamTool | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', path, 'upstream is a mapping such as {server: files, tool: read_file}'));
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(raw)) if (!UPSTREAM_MEMBERS.includes(key)) problems.push(unknown(path, key, UPSTREAM_MEMBERS));
  for (const key of UPSTREAM_MEMBERS) {
    if (raw[key] === undefined) problems.push(problem('MISSING_MEMBER', path, `upstream needs ${key}`));
  }
  if (raw.server !== undefined && !(typeof raw.server === 'string' && SERVER_NAME.test(raw.server))) {
    problems.push(problem('INVALID_VALUE', `${path}/server`, 'a server name of mcp/servers.yaml: 1-64 lowercase letters, digits, _ and -'));
  } else if (typeof raw.server === 'string' && options.upstreams && !options.upstreams.has(raw.server)) {
    problems.push(problem('UNKNOWN_UPSTREAM', `${path}/server`, `mcp/servers.yaml has no server named ${raw.server}; name one it lists`));
  }
  if (raw.tool !== undefined && !(typeof raw.tool === 'string' && TOOL_NAME.test(raw.tool))) {
    problems.push(problem('INVALID_TOOL_NAME', `${path}/tool`, 'the upstream tool’s name: 1-128 letters, digits, _, - or .'));
  }
  if (problems.length !== before) return undefined;
  return { server: raw.server as string, tool: raw.tool as string };
}

function readText(value: unknown, path: string, problems: Diagnostic[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT) {
    problems.push(problem('INVALID_VALUE', path, `expected text of 1 to ${MAX_TEXT} characters`));
    return undefined;
  }
  return value;
}

function readConfirmation(raw: Record<string, unknown>, path: string, problems: Diagnostic[]): string | undefined {
  const words = readText(raw.confirmation, `${path}/confirmation`, problems);
  const required = raw.requires_confirmation;
  if (required !== undefined && typeof required !== 'boolean') {
    problems.push(problem('INVALID_VALUE', `${path}/requires_confirmation`, 'requires_confirmation is true or false'));
    return undefined;
  }
  if (required === false && raw.confirmation !== undefined) {
    problems.push(
      problem(
        'INVALID_VALUE',
        `${path}/requires_confirmation`,
        'requires_confirmation is false but confirmation words are given; remove one of the two',
      ),
    );
    return undefined;
  }
  if (words !== undefined) return words;
  return required === true && typeof raw.name === 'string' ? defaultConfirmation(raw.name) : undefined;
}

function readNames(value: unknown, path: string, problems: Diagnostic[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(problem('INVALID_TYPE', path, 'expected a list of tool names, such as [charge_card]'));
    return undefined;
  }
  const names: string[] = [];
  value.forEach((item, i) => {
    const at = childPointer(path, i);
    if (typeof item !== 'string' || !TOOL_NAME.test(item)) {
      problems.push(problem('INVALID_TOOL_NAME', at, 'a tool name is 1-128 letters, digits, _, - or .'));
    } else if (names.includes(item)) {
      problems.push(problem('DUPLICATE_VALUE', at, `${item} is named twice; name it once`));
    } else names.push(item);
  });
  return names;
}

/** Order rules and `from` may name only tools of this catalogue, and never make a tool unable to run. */
function checkReferences(raw: Record<string, unknown>, path: string, names: Map<string, number>, problems: Diagnostic[]): void {
  const self = raw.name;
  for (const key of ['after', 'not_after'] as const) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    list.forEach((item, i) => {
      if (typeof item !== 'string' || !TOOL_NAME.test(item)) return;
      const at = childPointer(path, key, i);
      if (!names.has(item)) problems.push(problem('UNKNOWN_TOOL', at, `the catalogue has no tool named ${item}; name a tool it holds`));
      else if (key === 'after' && item === self) {
        problems.push(problem('CONTRADICTORY_ORDER', at, `${item} cannot run after itself: it would never run`));
      } else if (key === 'not_after' && Array.isArray(raw.after) && raw.after.includes(item)) {
        problems.push(problem('CONTRADICTORY_ORDER', at, `${item} is in both after and not_after: the tool would never run`));
      }
    });
  }
  if (!Array.isArray(raw.checks)) return;
  raw.checks.forEach((check, i) => {
    if (!isRecord(check)) return;
    for (const [op, operand] of Object.entries(check)) {
      if (!isRecord(operand) || typeof operand.from !== 'string') continue;
      const tool = parseFrom(operand.from)?.tool;
      if (tool !== undefined && !names.has(tool)) {
        problems.push(
          problem(
            'UNKNOWN_TOOL',
            childPointer(path, 'checks', i, op, 'from'),
            `the catalogue has no tool named ${tool}; from names a tool it holds`,
          ),
        );
      }
    }
  });
}

function unknown(path: string, key: string, known: readonly string[]): Diagnostic {
  return problem('UNKNOWN_MEMBER', childPointer(path, key), `unknown member "${key}"; expected one of ${known.join(', ')}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof DecimalNumber);
}
