// Hostile sheets (docs/architecture.md, "Reading hostile input"): sheets built from the grammar with duplicate keys,
// tags, anchors and aliases, directives, YAML 1.1 booleans and deep nesting mixed in. For every one,
// compileSheet returns rather than throws, and either refuses with each problem at a line of the text, or
// compiles to a rulebook whose decisions equal those of the same text read by a strict reader (the yaml
// package with unique keys, YAML 1.2, no directives) and decided by a small model of docs/rule-sheets.md.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { FALSE, TRUE, type Tri, UNKNOWN } from '../src/conditions/tri.ts';
import { evaluateExpr } from '../src/rulebook/expr.ts';
import type { Rulebook } from '../src/rulebook/types.ts';
import { compileSheet } from '../src/sheet/compile.ts';
import { createSheetCache } from '../src/sheet/read-sheet.ts';

const RUNS = 250;
const cache = createSheetCache();

// --- The strict reader and the model --------------------------------------------------------------------

type StrictSheet = { rules: Record<string, unknown>[] };

/** The text as a strict reader reads it: one document, unique keys, YAML 1.2, no directives or errors. */
function strictRead(text: string): StrictSheet | undefined {
  if (/^%/m.test(text) || /\r(?!\n)/.test(text)) return undefined;
  const docs = parseAllDocuments(text, { uniqueKeys: true, version: '1.2', schema: 'core' });
  if (!Array.isArray(docs) || docs.length !== 1) return undefined;
  const doc = docs[0];
  if (!doc || doc.errors.length > 0 || doc.warnings.length > 0) return undefined;
  const value = doc.toJS({ maxAliasCount: 0 }) as unknown;
  if (value === null || typeof value !== 'object' || !Array.isArray((value as StrictSheet).rules)) return undefined;
  return value as StrictSheet;
}

const kleeneAnd = (parts: Tri[]): Tri => (parts.includes(FALSE) ? FALSE : parts.includes(UNKNOWN) ? UNKNOWN : TRUE);
const kleeneNot = (t: Tri): Tri => (t === TRUE ? FALSE : t === FALSE ? TRUE : UNKNOWN);

/** One `when` condition of the model over the call's arguments: a missing or other-typed argument is unknown. */
function condition(key: string, expected: unknown, args: Record<string, unknown>): Tri {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)_(over|under|at_least|at_most|is)$/.exec(key);
  if (!m) throw new Error(`the compiler accepted the condition ${key}`);
  const [, arg = '', op] = m;
  if (!Object.hasOwn(args, arg)) return UNKNOWN;
  const value = args[arg];
  if (typeof expected === 'number') {
    if (typeof value !== 'number') return UNKNOWN;
    const holds =
      op === 'over'
        ? value > expected
        : op === 'under'
          ? value < expected
          : op === 'at_least'
            ? value >= expected
            : op === 'at_most'
              ? value <= expected
              : value === expected;
    return holds ? TRUE : FALSE;
  }
  if (typeof value !== typeof expected) return UNKNOWN;
  return value === expected ? TRUE : FALSE;
}

/** What docs/rule-sheets.md says a rule decides for a call: refused (never), allowed where the guard holds, or not governed. */
function modelDecision(rule: Record<string, unknown>, args: Record<string, unknown>, contexts: Record<string, unknown>): string {
  if (rule.never === true) return 'refuse';
  if (!Array.isArray(rule.requires)) return 'ungoverned';
  const required = kleeneAnd(
    rule.requires.map((c) => (contexts[c as string] === true ? TRUE : contexts[c as string] === false ? FALSE : UNKNOWN)),
  );
  const when = rule.when as Record<string, unknown> | undefined;
  const applies = when ? kleeneAnd(Object.entries(when).map(([k, v]) => condition(k, v, args))) : TRUE;
  const guard = kleeneNot(kleeneAnd([applies, kleeneNot(required)]));
  return guard === TRUE ? 'allow' : 'refuse';
}

function rulebookDecision(rulebook: Rulebook, action: string, args: Record<string, unknown>, contexts: Record<string, unknown>): string {
  const flow = rulebook.flows.find((f) => f.action === action);
  if (!flow) return 'ungoverned';
  if ('refuse' in flow) return 'refuse';
  return evaluateExpr(flow.allow_when, args, contexts) === TRUE ? 'allow' : 'refuse';
}

// --- Sheets with hazards ----------------------------------------------------------------------------------

const CONTEXTS = ['approved', 'checked', 'vip'];
const VALUES = ['200', '100', '0', '"EU"', '"US"', 'EU', 'true', 'yes', 'on', 'y', 'null', '1e3', '200.5'];
const value = fc.oneof(
  { arbitrary: fc.constantFrom(...VALUES.slice(0, 7)), weight: 6 },
  { arbitrary: fc.constantFrom(...VALUES), weight: 1 },
);

/** Mostly `clean`, now and then one of `hazards`: so some sheets are clean and most have one or two hazards. */
function rarely<T>(clean: T, ...hazards: T[]): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: fc.constant(clean), weight: 12 }, { arbitrary: fc.constantFrom(...hazards), weight: 1 });
}

/** A piece that may go wrong: a tag, an anchor, or nothing. */
const property = rarely('', '!!str ', '!!bool ', '!custom ', '&p ', '!!seq ', '!!map ');

const whenPart = fc.tuple(
  fc.constantFrom('amount', 'region', 'count'),
  fc.constantFrom('_over', '_under', '_at_least', '_at_most', '_is'),
  value,
  property,
);

const deep = fc.integer({ min: 1, max: 40 }).chain((d) => fc.constantFrom(d, d * 100, 5000));

const ruleLines = fc
  .record({
    action: fc.constantFrom('refund_card', 'charge_card', 'close_account', 'delete_customer'),
    kind: fc.constantFrom('never', 'guard', 'guard', 'confirm'),
    neverValue: rarely('true', 'yes', 'on', 'y', '!!bool true', '!!bool yes', 'True'),
    requires: fc.uniqueArray(fc.constantFrom(...CONTEXTS), { minLength: 1, maxLength: 3 }),
    requiresProp: property,
    when: fc.uniqueArray(whenPart, { maxLength: 3, selector: ([arg, op]) => arg + op }),
    // The same condition again with another value: `{region_is: "EU", region_is: "US"}`.
    whenTwice: rarely(false, true),
    duplicateKey: rarely('', 'never', 'requires', 'action'),
    confirmValue: rarely('true', 'false', 'y', 'no', 'off'),
    keyProp: property,
    nested: fc.oneof(
      { arbitrary: fc.constant(null), weight: 12 },
      { arbitrary: fc.tuple(fc.constantFrom('when', 'requires', 'check'), deep, fc.constantFrom('[', '{a: ')), weight: 1 },
    ),
  })
  .map((r) => {
    const lines = [`  - action: ${r.action}`];
    if (r.kind === 'never') lines.push(`    ${r.keyProp}never: ${r.neverValue}`);
    if (r.kind === 'guard') {
      lines.push(`    requires: ${r.requiresProp}[${r.requires.join(', ')}]`);
      const when = r.whenTwice && r.when[0] ? [...r.when, [r.when[0][0], r.when[0][1], '"US"', ''] as const] : r.when;
      if (when.length > 0) lines.push(`    when: {${when.map(([arg, op, v, p]) => `${p}${arg}${op}: ${v}`).join(', ')}}`);
    }
    if (r.kind === 'confirm') lines.push(`    ${r.keyProp}requires_confirmation: ${r.confirmValue}`, '    at_most: 2');
    if (r.duplicateKey !== '') lines.push(r.duplicateKey === 'action' ? `    action: ${r.action}` : (lines[1] ?? '    never: true'));
    if (r.nested) {
      const [key, depth, open] = r.nested;
      const close = open === '[' ? ']' : '}';
      lines.push(`    ${key}: ${open.repeat(depth)}1${close.repeat(depth)}`);
    }
    return lines;
  });

const hostileSheet = fc
  .record({
    directive: rarely('', '%YAML 1.1', '%YAML 1.2', '%TAG ! tag:shop.example,2026:', '%TAG !s! tag:shop.example,2026:'),
    topProp: rarely('', '--- !!map', '--- &top', '---'),
    rulesProp: property,
    rules: fc.uniqueArray(ruleLines, { maxLength: 4, selector: (lines) => lines[0] }),
    secondRules: rarely(false, true),
    alias: rarely(false, true),
    eol: rarely('\n', '\r\n', '\r'),
  })
  .map((s) => {
    const lines: string[] = [];
    if (s.directive) lines.push(s.directive, '---');
    if (s.topProp) lines.push(s.topProp);
    lines.push(`${s.rulesProp}rules:${s.rules.length === 0 ? ' []' : ''}`);
    for (const rule of s.rules) lines.push(...rule);
    if (s.alias && s.rules.length > 0) lines.push('  - action: alias_target', '    requires: *p');
    if (s.secondRules) lines.push('rules: []');
    return lines.join(s.eol) + s.eol;
  });

// --- The properties ------------------------------------------------------------------------------------------

/** Calls over every action, with amounts and regions on both sides of the sheet's values, and each context set or not. */
const calls: { args: Record<string, unknown>; contexts: Record<string, unknown> }[] = [];
for (const amount of [undefined, 0, 100, 150, 200, 250, 1000])
  for (const region of [undefined, 'EU', 'US', 200])
    for (const bits of [0, 1, 2, 5, 7]) {
      const args: Record<string, unknown> = {};
      if (amount !== undefined) args.amount = amount;
      if (region !== undefined) args.region = region;
      args.count = 100;
      const contexts: Record<string, unknown> = {};
      CONTEXTS.forEach((c, i) => {
        if (bits & (1 << i)) contexts[c] = true;
        else if (i === 1) contexts[c] = false;
      });
      calls.push({ args, contexts });
    }

function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

/**
 * Sheets every run holds, each compiled to a rulebook that governs an action: how many generated sheets do is left
 * to chance, and the property says little about decisions unless some do.
 */
const GOVERNING_EXAMPLES: [string][] = [
  'rules:\n  - action: refund_card\n    never: true\n',
  'rules:\n  - action: refund_card\n    requires: [approved]\n    when: {amount_over: 200}\n',
  'rules:\n  - action: charge_card\n    requires: [approved, checked]\n',
  'rules:\n  - action: close_account\n    requires: [vip]\n    when: {region_is: "EU", count_at_most: 100}\n',
  'rules:\r\n  - action: delete_customer\r\n    never: true\r\n  - action: charge_card\r\n    requires: [checked]\r\n',
  'rules:\n  - action: refund_card\n    requires: [approved]\n    when: {amount_at_least: 0, region_is: US}\n',
].map((text) => [text]);

describe('hostile sheets: refused with a line, or decided as a strict reader reads them', () => {
  it('never throws; a refusal has every problem at a line of the text; a compile decides as the strict reading does', () => {
    const seen = { compiled: 0, governed: 0, refused: 0 };
    fc.assert(
      fc.property(hostileSheet, (text) => {
        const r = compileSheet(text);
        seen[r.ok ? 'compiled' : 'refused']++;
        if (r.ok && r.rulebook.flows.length > 0) seen.governed++;
        expect(compileSheet(text, undefined, 'rules.yaml', cache)).toEqual(r);
        if (!r.ok) {
          expect(r.problems.length).toBeGreaterThan(0);
          for (const p of r.problems) {
            expect(['rule_sheet_unsupported', 'rule_sheet_limit']).toContain(p.code);
            const line = p.line ?? 0;
            expect(line, `${JSON.stringify(p)} in ${JSON.stringify(text.slice(0, 300))}`).toBeGreaterThanOrEqual(1);
            expect(line).toBeLessThanOrEqual(lineCount(text));
          }
          return;
        }
        const strict = strictRead(text);
        expect(strict, `compiled, but a strict reader refuses ${JSON.stringify(text)}`).toBeDefined();
        if (!strict) return;
        for (const rule of strict.rules) {
          const action = rule.action as string;
          for (const { args, contexts } of calls) {
            expect(rulebookDecision(r.rulebook, action, args, contexts), `${action} ${JSON.stringify({ args, contexts })} in ${text}`).toBe(
              modelDecision(rule, args, contexts),
            );
          }
        }
      }),
      { numRuns: RUNS, examples: GOVERNING_EXAMPLES },
    );
    // The generator reaches both sides, and rulebooks that decide something are checked.
    expect(seen.refused).toBeGreaterThan(RUNS / 10);
    expect(seen.governed).toBeGreaterThanOrEqual(GOVERNING_EXAMPLES.length);
  });

  it('the hazards are refused, each at its line, whatever else the sheet holds', () => {
    const base = 'rules:\n  - action: refund_card\n    requires: [approved]\n    when: {amount_over: 200}\n';
    const cases: [string, number][] = [
      [base.replace('{amount_over: 200}', '{amount_over: 200, amount_over: 100}'), 4],
      [`%YAML 1.1\n---\n${base}`, 1],
      [`--- !!map\n${base}`, 2],
      [base.replace('requires: [approved]', 'requires: !!seq [approved]'), 3],
      [base.replace('    when', '    !!str when'), 4],
      [base.replace('[approved]', `${'['.repeat(5000)}approved${']'.repeat(5000)}`), 3],
    ];
    for (const [text, line] of cases) {
      const r = compileSheet(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.problems.map((p) => p.line)).toEqual([line]);
    }
  });
});
