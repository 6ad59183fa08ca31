/// <reference types="node" />
// The policy@1 conformance suite: every case is data in test/cases/*.yaml, run by this one runner
// (OPA's test/cases habit). Each file's header names the docs/policy.md sections it covers.
//
// A case file is one YAML mapping:
//
//   policies: {NAME: <policy@1 document>}   shared documents a case names with `policy: NAME`
//   tools:    {NAME: <tool binding>}        shared bindings {name, action, amount?: {pointer, currency, currency_pointer?}}
//   members:  {NAME: [<member spec>]}       shared member lists a case names with `members: NAME`
//   cases:    [<case>]
//
// A member spec is {id, role, signing, model?} or {generate: N, role, signing, model?}: N members with made-up IDs
// (ffffffff-0000-4000-8000-<12 digits>), for the limits that need many people.
//
// An evaluation case (it has `want`) decides one call with compilePolicy, compileTool and evaluatePolicy:
//
//   note: what the case shows (the test's name; unique across all files)
//   policy: NAME | <document>                   must be valid
//   tool: NAME | <binding>
//   arguments: <JSON value>                     the call's arguments (usually an object)
//   members?: NAME | [<member spec>]            members at decision time; absent: approvers are not resolved
//   now?: ISO time                              decision time (default 2030-01-01T00:00:00.000Z)
//   delegation_valid_until?: ISO time
//   default_approval_ttl_seconds?: integer      the organisation's default approval lifetime
//   want:
//     decision: allow | require_approval | deny (required)
//     rule: <rule id> | null                    (required)
//     code: null | DEFAULT | INVALID_AMOUNT | ... (required)
//     approvers?: [<user id>]                   exact set of eligible approvers (order ignored), or null
//     approver_count?: integer                  number of eligible approvers
//     approval?: {ttl_seconds, expires_at?} | null
//     decided_by?: rule | default | invalid_amount | invalid_tool_configuration
//     fail_closed_rules?: [<rule id>]           explanation.fail_closed rule ids, in order
//     fail_closed?: [<FailClosedMatch>]         explanation.fail_closed exactly
//     explanation_rule?: <object> | null        explanation.rule exactly
//     notice?: {none?, rule?, conditions?}      discloseToAgent(decision, level) exactly, per level
//
// A validation case (it has `want_errors`) validates a document with validatePolicy:
//
//   note
//   policy: NAME | <document>   or   policy_text: <JSON text>  (read with readJsonText first)
//   members?: NAME | [<member spec>]            for UNKNOWN_APPROVER / APPROVER_ROLE_NOT_CAPABLE
//   tools?: [NAME | <binding>]                  for FAIL_CLOSED_ROUTING / RULE_MATCHES_NO_TOOL
//   want_errors: [{code, path}]                 the exact set of errors
//   want_warnings?: [{code, path}]              the exact set of warnings (absent: none)
//   want_revision?: 1 | 2 | 3
//
// A binding case (it has `binding`) validates a tool binding with validateToolBinding:
//
//   note, binding: <binding>, want_errors: [{code, path}]
//
// Besides the cases, the runner checks that every error and warning code of POLICY_CODES is expected
// by some case, and that no evaluated explanation (nor the most detailed agent notice) contains a
// string argument value of 3 or more characters that the policy document does not itself contain.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  compilePolicy,
  compileTool,
  type DisclosureLevel,
  discloseToAgent,
  evaluatePolicy,
  keptNumberPaths,
  type Member,
  POLICY_CODES,
  type PolicyDecision,
  readJsonText,
  type ToolBinding,
  validatePolicy,
  validateToolBinding,
} from '../src/index.ts';

type Json = unknown;
type Obj = Record<string, unknown>;

interface Pair {
  code: string;
  path: string;
}

interface CaseFile {
  file: string;
  policies: Record<string, Json>;
  tools: Record<string, ToolBinding>;
  members: Record<string, Json[]>;
  cases: Obj[];
}

const CASES_DIR = fileURLToPath(new URL('./cases/', import.meta.url));
const DEFAULT_NOW = '2030-01-01T00:00:00.000Z';
const FILE_KEYS = ['policies', 'tools', 'members', 'cases'];
const EVALUATION_KEYS = [
  'note',
  'policy',
  'tool',
  'arguments',
  'members',
  'now',
  'delegation_valid_until',
  'default_approval_ttl_seconds',
  'want',
];
const WANT_KEYS = [
  'decision',
  'rule',
  'code',
  'approvers',
  'approver_count',
  'approval',
  'decided_by',
  'fail_closed_rules',
  'fail_closed',
  'explanation_rule',
  'notice',
];
const VALIDATION_KEYS = ['note', 'policy', 'policy_text', 'members', 'tools', 'want_errors', 'want_warnings', 'want_revision'];
const BINDING_KEYS = ['note', 'binding', 'want_errors'];

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Fails loudly on a misspelt key, so a typo can never make a case check less than it says. */
function checkKeys(where: string, value: Obj, allowed: readonly string[]): void {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw new Error(`${where}: unknown key(s) ${unknown.join(', ')}`);
}

function loadFiles(): CaseFile[] {
  const names = readdirSync(CASES_DIR)
    .filter((n) => n.endsWith('.yaml'))
    .sort();
  return names.map((file) => {
    const data: unknown = parse(readFileSync(`${CASES_DIR}${file}`, 'utf8'));
    if (!isObj(data) || !Array.isArray(data.cases)) throw new Error(`${file}: expected a mapping with a "cases" list`);
    checkKeys(file, data, FILE_KEYS);
    return {
      file,
      policies: (data.policies ?? {}) as Record<string, Json>,
      tools: (data.tools ?? {}) as Record<string, ToolBinding>,
      members: (data.members ?? {}) as Record<string, Json[]>,
      cases: data.cases as Obj[],
    };
  });
}

const FILES = loadFiles();

function policyOf(f: CaseFile, ref: unknown): Json {
  if (typeof ref === 'string') {
    if (!Object.hasOwn(f.policies, ref)) throw new Error(`${f.file}: no shared policy "${ref}"`);
    return f.policies[ref];
  }
  return ref;
}

function toolOf(f: CaseFile, ref: unknown): ToolBinding {
  if (typeof ref === 'string') {
    if (!Object.hasOwn(f.tools, ref)) throw new Error(`${f.file}: no shared tool "${ref}"`);
    return f.tools[ref] as ToolBinding;
  }
  return ref as ToolBinding;
}

function membersOf(f: CaseFile, ref: unknown): Member[] | undefined {
  if (ref === undefined) return undefined;
  let specs: unknown = ref;
  if (typeof ref === 'string') {
    if (!Object.hasOwn(f.members, ref)) throw new Error(`${f.file}: no shared member list "${ref}"`);
    specs = f.members[ref];
  }
  if (!Array.isArray(specs)) throw new Error(`${f.file}: members is a list`);
  const out: Member[] = [];
  let generated = 0;
  for (const spec of specs) {
    if (!isObj(spec)) throw new Error(`${f.file}: a member spec is a mapping`);
    if (spec.generate !== undefined) {
      checkKeys(`${f.file} member spec`, spec, ['generate', 'role', 'signing', 'model']);
      for (let i = 0; i < (spec.generate as number); i++) {
        generated++;
        out.push({
          id: `ffffffff-0000-4000-8000-${String(generated).padStart(12, '0')}`,
          role: spec.role,
          signing: spec.signing,
          ...(spec.model === undefined ? {} : { model: spec.model }),
        } as Member);
      }
    } else {
      checkKeys(`${f.file} member spec`, spec, ['id', 'role', 'signing', 'model']);
      out.push(spec as unknown as Member);
    }
  }
  return out;
}

function pairs(list: unknown): Pair[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error('expected a list of {code, path}');
  return list.map((p) => {
    if (!isObj(p)) throw new Error('expected {code, path}');
    checkKeys('want_errors/want_warnings entry', p, ['code', 'path']);
    return { code: String(p.code), path: String(p.path) };
  });
}

/** A set of {code, path} pairs in a canonical order, duplicates collapsed. */
function pairSet(list: readonly { code: string; path?: string | undefined }[]): Pair[] {
  const keyed = new Map<string, Pair>();
  for (const d of list) {
    const pair = { code: d.code, path: d.path ?? '<no path>' };
    keyed.set(`${pair.code} ${pair.path}`, pair);
  }
  return [...keyed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/** Every string value (not member names) anywhere in a JSON value. */
function stringValues(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringValues(v, out);
  else if (isObj(value)) for (const v of Object.values(value)) stringValues(v, out);
  return out;
}

/** Argument strings (3+ characters, not in the policy) that appear in `text`, raw or JSON-escaped. */
function leakedArguments(text: string, args: unknown, policy: unknown): string[] {
  const policyText = JSON.stringify(policy);
  const leaked = new Set<string>();
  for (const s of stringValues(args)) {
    if (s.length < 3) continue;
    const escaped = JSON.stringify(s).slice(1, -1);
    if (policyText.includes(s) || policyText.includes(escaped)) continue;
    if (text.includes(s) || text.includes(escaped)) leaked.add(s);
  }
  return [...leaked];
}

// Codes expected by some case, gathered while the suite is defined.
const expectedCodes = new Set<string>();
const notes = new Set<string>();

function runEvaluation(f: CaseFile, c: Obj): void {
  const note = c.note as string;
  checkKeys(`${f.file}: ${note}`, c, EVALUATION_KEYS);
  const want = c.want as Obj;
  checkKeys(`${f.file}: ${note} want`, want, WANT_KEYS);
  for (const k of ['decision', 'rule', 'code']) if (!Object.hasOwn(want, k)) throw new Error(`${f.file}: ${note}: want.${k} is required`);
  if (!Object.hasOwn(c, 'arguments')) throw new Error(`${f.file}: ${note}: arguments is required`);

  const document = policyOf(f, c.policy);
  const binding = toolOf(f, c.tool);
  const members = membersOf(f, c.members);
  const args = c.arguments;

  it(note, () => {
    const compiled = compilePolicy(document);
    if (!compiled.ok) expect.fail(`the case's policy is invalid: ${JSON.stringify(compiled.errors)}`);
    const tool = compileTool(binding);
    const now = new Date((c.now as string | undefined) ?? DEFAULT_NOW);
    const d: PolicyDecision = evaluatePolicy(compiled.policy, tool, args, {
      now,
      ...(members ? { members } : {}),
      ...(c.delegation_valid_until !== undefined ? { delegationValidUntil: new Date(c.delegation_valid_until as string) } : {}),
      ...(c.default_approval_ttl_seconds !== undefined ? { defaultApprovalTtlSeconds: c.default_approval_ttl_seconds as number } : {}),
    });

    expect({ decision: d.decision, rule: d.rule, code: d.code }).toEqual({ decision: want.decision, rule: want.rule, code: want.code });
    if (want.approvers !== undefined) {
      const sorted = (l: string[] | null) => (l === null ? null : [...l].sort());
      expect(sorted(d.approvers)).toEqual(sorted(want.approvers as string[] | null));
    }
    if (want.approver_count !== undefined) expect(d.approvers?.length ?? 0).toBe(want.approver_count);
    if (want.approval !== undefined) {
      if (want.approval === null) expect(d.approval).toBeNull();
      else expect(d.approval).toMatchObject(want.approval as Obj);
    }
    if (want.decided_by !== undefined) expect(d.explanation.decided_by).toBe(want.decided_by);
    if (want.fail_closed_rules !== undefined) expect(d.explanation.fail_closed.map((m) => m.rule)).toEqual(want.fail_closed_rules);
    if (want.fail_closed !== undefined) expect(d.explanation.fail_closed).toEqual(want.fail_closed);
    if (want.explanation_rule !== undefined) expect(d.explanation.rule).toEqual(want.explanation_rule);
    if (want.notice !== undefined) {
      const notice = want.notice as Obj;
      checkKeys(`${f.file}: ${note} want.notice`, notice, ['none', 'rule', 'conditions']);
      for (const [level, expected] of Object.entries(notice)) {
        expect(discloseToAgent(d, level as DisclosureLevel)).toEqual(expected);
      }
    }

    // Explanations name conditions and thresholds, never the call's argument values (docs/policy.md, "Explanations and
    // disclosure").
    const shown = JSON.stringify(d.explanation) + JSON.stringify(discloseToAgent(d, 'conditions'));
    expect(leakedArguments(shown, args, document)).toEqual([]);
  });
}

function runValidation(f: CaseFile, c: Obj): void {
  const note = c.note as string;
  checkKeys(`${f.file}: ${note}`, c, VALIDATION_KEYS);
  if ((c.policy === undefined) === (c.policy_text === undefined)) throw new Error(`${f.file}: ${note}: give policy or policy_text`);
  const wantErrors = pairs(c.want_errors);
  const wantWarnings = pairs(c.want_warnings);
  for (const p of [...wantErrors, ...wantWarnings]) expectedCodes.add(p.code);
  const members = membersOf(f, c.members);
  const tools = c.tools === undefined ? undefined : (c.tools as unknown[]).map((t) => toolOf(f, t));

  it(note, () => {
    const errors: { code: string; path?: string | undefined }[] = [];
    let document: unknown = c.policy === undefined ? undefined : policyOf(f, c.policy);
    if (c.policy_text !== undefined) {
      const read = readJsonText(c.policy_text as string);
      if (!read.ok) expect.fail(`policy_text is not readable: ${read.diagnostic.code} ${read.diagnostic.message}`);
      errors.push(...read.diagnostics);
      document = read.value;
    }
    const result = validatePolicy(document, {
      ...(members ? { members } : {}),
      ...(tools ? { tools } : {}),
    });
    errors.push(...result.errors);
    expect(pairSet(errors)).toEqual(pairSet(wantErrors));
    expect(pairSet(result.warnings)).toEqual(pairSet(wantWarnings));
    expect(result.valid).toBe(result.errors.length === 0);
    for (const e of result.errors) expect(e.severity).toBe('error');
    for (const w of result.warnings) expect(w.severity).toBe('warning');
    if (c.want_revision !== undefined) expect(result.revision).toBe(c.want_revision);
    // The document compiles exactly when it validates on its own (members and tools only add checks) and
    // states every number exactly (a number kept as written is its reader's INEXACT_NUMBER).
    expect(compilePolicy(document).ok).toBe(validatePolicy(document).valid && keptNumberPaths(document).length === 0);
  });
}

function runBinding(f: CaseFile, c: Obj): void {
  const note = c.note as string;
  checkKeys(`${f.file}: ${note}`, c, BINDING_KEYS);
  const wantErrors = pairs(c.want_errors);
  for (const p of wantErrors) expectedCodes.add(p.code);

  it(note, () => {
    const problems = validateToolBinding(c.binding);
    expect(pairSet(problems)).toEqual(pairSet(wantErrors));
    expect(compileTool(c.binding as ToolBinding).valid).toBe(problems.length === 0);
  });
}

for (const f of FILES) {
  describe(f.file, () => {
    for (const c of f.cases) {
      if (!isObj(c) || typeof c.note !== 'string' || c.note === '') throw new Error(`${f.file}: every case needs a note`);
      if (notes.has(c.note)) throw new Error(`${f.file}: duplicate note "${c.note}"`);
      notes.add(c.note);
      if (c.want !== undefined) runEvaluation(f, c);
      else if (c.binding !== undefined) runBinding(f, c);
      else if (c.want_errors !== undefined) runValidation(f, c);
      else throw new Error(`${f.file}: ${c.note}: a case has want, binding or want_errors`);
    }
  });
}

describe('the suite itself', () => {
  it('expects every error and warning code of the registry in some case', () => {
    const registry = Object.entries(POLICY_CODES)
      .filter(([, entry]) => entry.kind === 'error' || entry.kind === 'warning')
      .map(([code]) => code);
    expect(registry.length).toBeGreaterThan(30);
    expect(registry.filter((code) => !expectedCodes.has(code))).toEqual([]);
  });

  it('has case files grouped by seed section, each with cases', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(8);
    for (const f of FILES) expect(f.cases.length, f.file).toBeGreaterThan(0);
  });

  it('catches an argument value copied into an explanation (the leak check can fail)', () => {
    const args = { note: 'secret-customer-name', short: 'ab' };
    expect(leakedArguments('{"summary":"secret-customer-name"}', args, {})).toEqual(['secret-customer-name']);
    expect(leakedArguments('{"summary":"secret-customer-name"}', args, { rules: ['secret-customer-name'] })).toEqual([]);
    expect(leakedArguments('{"summary":"ab"}', args, {})).toEqual([]);
  });
});
