// Policy tests: example calls with expected outcomes, run against a document (OPA's test habit).
// Examples come with templates, live beside documents, and replay recorded calls.
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { readJsonText } from '../source/json-text.ts';
import { writeJson } from '../source/json-write.ts';
import { placeProblems } from '../source/place-problems.ts';
import { type CompiledPolicy, compileTool } from './compile.ts';
import { type DecisionCode, type EvaluateOptions, evaluatePolicy } from './evaluate.ts';
import { validateToolBinding } from './tool.ts';
import type { Effect, ToolBinding } from './types.ts';

/** Arguments of an example are at most 8 KiB of JSON (docs/policy.md, "Codes": TOO_LARGE). */
export const MAX_EXAMPLE_ARGUMENT_BYTES = 8 * 1024;

export interface ExampleCall {
  name: string;
  /** The exposed tool's name, looked up in the suite's tools. */
  tool: string;
  /** The call's arguments; null when a recorded call's arguments are no longer available. */
  arguments: Record<string, unknown> | null;
  expect: { decision: Effect; rule?: string | null; code?: DecisionCode };
}

/** A suite: the tools its examples call, and the examples. The `--examples` file of `tollgate policy test`. */
export interface ExampleSuite {
  tools: ToolBinding[];
  examples: ExampleCall[];
}

export interface ExampleResult {
  name: string;
  /** `pass`, `fail`, or `not_evaluable` (ARGUMENTS_REQUIRED: the decision depends on arguments no longer kept). */
  status: 'pass' | 'fail' | 'not_evaluable';
  expected: ExampleCall['expect'];
  actual: { decision: Effect; rule: string | null; code: DecisionCode } | null;
  code?: 'ARGUMENTS_REQUIRED';
}

export interface TestReport {
  passed: number;
  failed: number;
  not_evaluable: number;
  results: ExampleResult[];
}

const SUITE_MEMBERS = ['tools', 'examples'];
const EXAMPLE_MEMBERS = ['name', 'tool', 'arguments', 'expect'];
const EXPECT_MEMBERS = ['decision', 'rule', 'code'];

/** Validates a suite's shape; every problem with its path. */
export function validateExampleSuite(suite: unknown): Diagnostic[] {
  const problems: Diagnostic[] = [];
  if (!isObject(suite)) return [problem('INVALID_TYPE', '', 'an example suite is {"tools": [...], "examples": [...]}')];
  for (const key of Object.keys(suite))
    if (!SUITE_MEMBERS.includes(key)) problems.push(problem('UNKNOWN_MEMBER', `/${key}`, `expected ${SUITE_MEMBERS.join(', ')}`));
  if (!Array.isArray(suite.tools)) problems.push(problem('INVALID_TYPE', '/tools', 'tools is a list of {"name", "action", "amount"?}'));
  else
    suite.tools.forEach((t, i) => {
      problems.push(...validateToolBinding(t, `/tools/${i}`));
    });
  const toolNames = new Set(Array.isArray(suite.tools) ? suite.tools.map((t) => (isObject(t) ? t.name : undefined)) : []);
  if (!Array.isArray(suite.examples)) {
    problems.push(problem('INVALID_TYPE', '/examples', 'examples is a list of {"name", "tool", "arguments", "expect"}'));
    return problems;
  }
  suite.examples.forEach((ex, i) => {
    const at = `/examples/${i}`;
    if (!isObject(ex)) {
      problems.push(problem('INVALID_TYPE', at, 'an example is {"name", "tool", "arguments", "expect"}'));
      return;
    }
    for (const key of Object.keys(ex))
      if (!EXAMPLE_MEMBERS.includes(key))
        problems.push(problem('UNKNOWN_MEMBER', `${at}/${key}`, `expected ${EXAMPLE_MEMBERS.join(', ')}`));
    if (typeof ex.name !== 'string' || ex.name === '') problems.push(problem('INVALID_TYPE', `${at}/name`, 'an example needs a name'));
    if (typeof ex.tool !== 'string' || !toolNames.has(ex.tool))
      problems.push(problem('INVALID_VALUE', `${at}/tool`, "name one of the suite's tools"));
    if (ex.arguments !== null && !isObject(ex.arguments))
      problems.push(
        problem('INVALID_TYPE', `${at}/arguments`, 'arguments is an object, or null for a recorded call whose arguments are gone'),
      );
    else if (ex.arguments !== null && utf8Length(writeJson(ex.arguments)) > MAX_EXAMPLE_ARGUMENT_BYTES) {
      problems.push(
        problem('TOO_LARGE', `${at}/arguments`, `an example's arguments are at most ${MAX_EXAMPLE_ARGUMENT_BYTES} bytes of JSON`),
      );
    }
    if (!isObject(ex.expect)) problems.push(problem('INVALID_TYPE', `${at}/expect`, 'expect is {"decision", "rule"?, "code"?}'));
    else {
      for (const key of Object.keys(ex.expect))
        if (!EXPECT_MEMBERS.includes(key))
          problems.push(problem('UNKNOWN_MEMBER', `${at}/expect/${key}`, `expected ${EXPECT_MEMBERS.join(', ')}`));
      if (!['allow', 'require_approval', 'deny'].includes(ex.expect.decision as string)) {
        problems.push(problem('INVALID_VALUE', `${at}/expect/decision`, 'expected "allow", "require_approval" or "deny"'));
      }
    }
  });
  return problems;
}

/** A suite read from its text: the suite, or every problem with its path and line. */
export type ExampleSuiteRead = { ok: true; suite: ExampleSuite } | { ok: false; problems: Diagnostic[] };

/**
 * Reads a suite's JSON text exactly (a member named twice is refused, as in a policy) and validates it;
 * each problem gets the line its path points at. The one reader of `--examples` files and
 * `policies/*.examples.json` documents. Inexact numbers stay allowed: arguments are an agent's JSON.
 *
 * @example
 * readExampleSuite('{"tools": [], "examples": [{"name": "x"}]}')
 * // { ok: false, problems: [{ code: 'INVALID_VALUE', path: '/examples/0/tool', range: { start: { line: 1, ... } } }, ...] }
 */
export function readExampleSuite(text: string): ExampleSuiteRead {
  const read = readJsonText(text);
  if (!read.ok) return { ok: false, problems: [read.diagnostic] };
  const duplicates = read.diagnostics.filter((d) => d.code === 'DUPLICATE_MEMBER');
  const problems = placeProblems([...duplicates, ...validateExampleSuite(read.value)], read.rangeOf);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, suite: read.value as ExampleSuite };
}

/**
 * Runs every example against a compiled policy and reports expected against actual.
 * A call without arguments whose decision could depend on them is not evaluable, never guessed.
 */
export function runPolicyTests(policy: CompiledPolicy, suite: ExampleSuite, options: EvaluateOptions = {}): TestReport {
  const tools = new Map(suite.tools.map((t) => [t.name, compileTool(t)]));
  const results: ExampleResult[] = [];
  for (const ex of suite.examples) {
    const tool = tools.get(ex.tool);
    if (!tool) throw new Error(`example "${ex.name}" names an unknown tool; validate the suite first`);
    if (ex.arguments === null && dependsOnArguments(policy, tool)) {
      results.push({ name: ex.name, status: 'not_evaluable', expected: ex.expect, actual: null, code: 'ARGUMENTS_REQUIRED' });
      continue;
    }
    const d = evaluatePolicy(policy, tool, ex.arguments ?? {}, options);
    const actual = { decision: d.decision, rule: d.rule, code: d.code };
    const pass =
      actual.decision === ex.expect.decision &&
      (ex.expect.rule === undefined || actual.rule === ex.expect.rule) &&
      (ex.expect.code === undefined || actual.code === ex.expect.code);
    results.push({ name: ex.name, status: pass ? 'pass' : 'fail', expected: ex.expect, actual });
  }
  return {
    passed: results.filter((r) => r.status === 'pass').length,
    failed: results.filter((r) => r.status === 'fail').length,
    not_evaluable: results.filter((r) => r.status === 'not_evaluable').length,
    results,
  };
}

/** Whether a tool's decision can depend on its arguments: an amount mapping, or a candidate rule with conditions. */
export function dependsOnArguments(policy: CompiledPolicy, tool: ReturnType<typeof compileTool>): boolean {
  if (tool.currency !== undefined) return true;
  return policy.candidates(tool.action).some((r) => r.conditions.length > 0 && (r.tools === null || r.tools.has(tool.name)));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** UTF-8 length without Node's Buffer (the engine runs in browsers too). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
