// Fuzz properties of the sheet compiler (docs/rule-sheets.md, "Refused, never approximated": random and mutated sheets
// never crash the compiler; every refusal carries a line within the file). For every text, random or built:
// compileSheet returns rather than throws, and returns the same through the console's rule cache; a refusal lists
// rule_sheet_unsupported errors, each at a line of the text, in line order; a compiled sheet's Colang parses again to
// the same rulebook. Valid sheets built from the grammar also compile to exactly the rulebook and overlay a small model
// of docs/rule-sheets.md says they should.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseColang } from '../src/colang/parse.ts';
import { canonicalJson, canonicalRulebook } from '../src/rulebook/canonical.ts';
import type { Check, Expr, Flow, Literal, ToolDeclarations } from '../src/rulebook/types.ts';
import { compileSheet } from '../src/sheet/compile.ts';
import { createSheetCache } from '../src/sheet/read-sheet.ts';
import { SHOP_SHEET_EXTENDED } from './fixtures/shop.ts';

const RUNS = 1000;

/**
 * The lines of a text as an editor (Monaco) counts them: one more than its line feeds, so the empty line
 * after a final newline is a line (YAML reports an unclosed quote or bracket there, at the end of input).
 */
function lineCount(text: string): number {
  return text.split('\n').length;
}

/** One cache across every run, as the console keeps one across keystrokes. */
const cache = createSheetCache();

/** What every text must satisfy, whatever it holds, read whole or rule by rule through the cache. */
function expectSound(text: string): void {
  const r = compileSheet(text);
  expect(compileSheet(text, undefined, 'rules.yaml', cache)).toEqual(r);
  if (!r.ok) {
    expect(r.problems.length).toBeGreaterThan(0);
    const max = lineCount(text);
    let previous = 1;
    for (const p of r.problems) {
      expect(['rule_sheet_unsupported', 'rule_sheet_limit']).toContain(p.code);
      expect(p.severity).toBe('error');
      const line = p.line ?? 0;
      expect(Number.isInteger(line), JSON.stringify(p)).toBe(true);
      expect(line, `${JSON.stringify(p)} in ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(1);
      expect(line, `${JSON.stringify(p)} in ${JSON.stringify(text)}`).toBeLessThanOrEqual(max);
      expect(line).toBeGreaterThanOrEqual(previous);
      previous = line;
    }
    expect(Object.keys(r).sort()).toEqual(['ok', 'problems']);
    return;
  }
  const again = parseColang(r.colang);
  expect(again.ok, `${JSON.stringify(text)} compiled to Colang its front end refuses`).toBe(true);
  if (again.ok) expect(canonicalJson(again.rulebook)).toBe(canonicalJson(r.rulebook));
  for (const { line } of Object.values(r.sourceMap.flows)) {
    expect(line).toBeGreaterThanOrEqual(1);
    expect(line).toBeLessThanOrEqual(lineCount(text));
  }
}

// --- Random text ----------------------------------------------------------------------------------

const YAML_PIECES = [
  'rules:',
  '  - action: a',
  '    requires: [x]',
  '    when: { amount_over: 200 }',
  '    never: true',
  '---',
  '...',
  '\t',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '  ',
  '- ',
  ': ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '#',
  '&a ',
  '*a',
  '!!str ',
  '|',
  '>',
  '? ',
  '%YAML 1.2',
  'action',
  'check',
  '{from: a.b}',
  '1e3',
  '200.50',
  '\uFEFF',
  'é',
  '\u2028',
];

// --- Sheets built from the grammar, valid or not ------------------------------------------------------

const KEYS = ['action', 'requires', 'when', 'never', 'requires_confirmation', 'confirmation', 'after', 'not_after', 'at_most', 'check'];
const VALUES = [
  'refund_card',
  'a.b-c',
  '[supervisor_approved]',
  '[a, b]',
  '[]',
  '[a, a]',
  '[Bad]',
  '{ amount_over: 200 }',
  '{ amount_over: "200" }',
  '{ amount_over: true }',
  '{ amount: 1 }',
  '{ amount_at_least: 1, currency_is: EUR }',
  '{ amount_under: 1e3 }',
  '{}',
  'true',
  'false',
  'yes',
  '0',
  '1',
  '-1',
  '1.5',
  '"Sure?"',
  '""',
  '[{field: q, is: 1}]',
  '[{field: q, at_most: {from: check_stock.in_stock}}]',
  '[{field: q, in: [DE, FR]}]',
  '[{field: q}]',
  '[3]',
  '{from: a.b}',
  '&anchor [x]',
  '*anchor',
  '!!str x',
  '',
  '|',
  '- x',
  'null',
  '~',
];

const keyLine = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('bogus', 'Action', '"never"', 'when_over'), fc.constantFrom(...VALUES)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...KEYS), fc.string({ maxLength: 12 })) },
);

const grammarSheet = fc
  .record({
    header: fc.constantFrom('', '# rules\n', '---\n', 'version: 1\n'),
    top: fc.constantFrom('rules:', 'rules: []', 'rules: [{action: a, never: true}]', 'rules: x', 'rule:'),
    rules: fc.array(fc.array(keyLine, { minLength: 1, maxLength: 5 }), { maxLength: 5 }),
    trailer: fc.constantFrom('', '---\n', '...\n', 'rules:\n  - action: z\n    never: true\n', 'extra: 1\n'),
  })
  .map(({ header, top, rules, trailer }) => {
    const lines: string[] = [top];
    for (const keys of rules) {
      keys.forEach(([key, value], i) => {
        lines.push(`${i === 0 ? '  - ' : '    '}${key}: ${value}`.trimEnd());
      });
    }
    return `${header}${lines.join('\n')}\n${trailer}`;
  });

// --- Valid sheets and what they must compile to ----------------------------------------------------

const RESERVED = new Set(['true', 'false', 'null']);
const actionName = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}(?:[.-][a-z0-9_]{1,4})?$/).filter((s) => !RESERVED.has(s));
const contextName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/).filter((s) => !RESERVED.has(s));
const argName = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/).filter((s) => !RESERVED.has(s));
/** A decimal as the sheet writes it and as the rulebook keeps it: no trailing zeros, no -0. */
const decimal = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.option(fc.stringMatching(/^[0-9]{0,17}[1-9]$/), { nil: undefined }))
  .map(([negative, whole, fraction]) => {
    const text = fraction === undefined ? `${whole}` : `${whole}.${fraction}`;
    return negative && text !== '0' ? `-${text}` : text;
  });
const word = fc.stringMatching(/^[a-z][a-z ]{0,8}[a-z]$/).filter((s) => !RESERVED.has(s));

interface Condition {
  key: string;
  source: string;
  expr: Expr;
}

const SUFFIX = { _over: 'gt', _under: 'lt', _at_least: 'gte', _at_most: 'lte' } as const;

const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.tuple(argName, fc.constantFrom(...(Object.keys(SUFFIX) as (keyof typeof SUFFIX)[])), decimal).map(
    ([arg, suffix, d]): Condition => ({
      key: `${arg}${suffix}`,
      source: d,
      expr: { arg, op: SUFFIX[suffix], value: { decimal: d } },
    }),
  ),
  fc
    .tuple(
      argName,
      fc.oneof(
        decimal.map((d): [string, Literal] => [d, { decimal: d }]),
        word.map((w): [string, Literal] => [`"${w}"`, { string: w }]),
        fc.boolean().map((b): [string, Literal] => [String(b), { boolean: b }]),
      ),
    )
    .map(([arg, [source, value]]): Condition => ({ key: `${arg}_is`, source, expr: { arg, op: 'eq', value } })),
);

interface CheckSpec {
  source: string;
  check: Check;
}

const checkSpec: fc.Arbitrary<CheckSpec> = fc.oneof(
  fc.tuple(argName, fc.nat({ max: 1000 })).map(
    ([field, n]): CheckSpec => ({
      source: `{field: ${field}, at_most: ${n}}`,
      check: { field, op: 'at_most', value: { decimal: String(n) } },
    }),
  ),
  fc.tuple(argName, fc.uniqueArray(argName, { minLength: 1, maxLength: 3 })).map(
    ([field, list]): CheckSpec => ({
      source: `{field: ${field}, in: [${list.join(', ')}]}`,
      check: { field, op: 'in', value: list.map((s) => ({ string: s })) },
    }),
  ),
  fc
    .tuple(
      argName,
      actionName.filter((s) => !s.includes('.')),
      argName,
    )
    .map(
      ([field, tool, from]): CheckSpec => ({
        source: `{field: ${field}, at_least: {from: ${tool}.${from}}}`,
        check: { field, op: 'at_least', from: { tool, field: from } },
      }),
    ),
);

interface RuleSpec {
  kind: 'never' | 'guard' | 'overlay';
  requires: string[];
  when: Condition[];
  confirm: 'none' | 'default' | 'words' | 'false';
  after: string[];
  notAfter: string[];
  atMost: number | undefined;
  checks: CheckSpec[];
}

const ruleSpec: fc.Arbitrary<RuleSpec> = fc
  .record({
    kind: fc.constantFrom('never', 'guard', 'overlay'),
    requires: fc.uniqueArray(contextName, { minLength: 1, maxLength: 3 }),
    when: fc.uniqueArray(condition, { maxLength: 4, selector: (c) => c.key }),
    confirm: fc.constantFrom('none', 'default', 'words', 'false'),
    after: fc.uniqueArray(actionName, { maxLength: 2 }),
    notAfter: fc.uniqueArray(actionName, { maxLength: 2 }),
    atMost: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
    checks: fc.array(checkSpec, { maxLength: 2 }),
  })
  .map((r): RuleSpec => {
    if (r.kind === 'never')
      return { ...r, requires: [], when: [], confirm: 'none', after: [], notAfter: [], atMost: undefined, checks: [] };
    if (r.kind === 'overlay') {
      // requires_confirmation: false alone says nothing, which the reader refuses.
      const some =
        (r.confirm !== 'none' && r.confirm !== 'false') ||
        r.after.length + r.notAfter.length + r.checks.length > 0 ||
        r.atMost !== undefined;
      return { ...r, requires: [], when: [], ...(some ? {} : { atMost: 1 }) };
    }
    return r;
  });

interface BuiltSheet {
  text: string;
  flows: Flow[];
  overlay: Record<string, ToolDeclarations>;
  lines: Record<string, number>;
}

const validSheet: fc.Arbitrary<BuiltSheet> = fc
  .record({
    comment: fc.boolean(),
    rules: fc.uniqueArray(fc.tuple(actionName, ruleSpec), { maxLength: 6, selector: ([name]) => name }),
    blankBetween: fc.boolean(),
  })
  .map(({ comment, rules, blankBetween }) => {
    const lines: string[] = comment ? ['# A generated sheet.', 'rules:'] : ['rules:'];
    const flows: Flow[] = [];
    const overlay: Record<string, ToolDeclarations> = {};
    const ruleLines: Record<string, number> = {};
    for (const [action, spec] of rules) {
      let rule = spec;
      if (blankBetween) lines.push('');
      lines.push(`  - action: ${action}`);
      ruleLines[action] = lines.length;
      const decl: ToolDeclarations = {};
      if (rule.kind === 'never') {
        lines.push('    never: true');
        flows.push({ action, refuse: true });
      }
      if (rule.kind === 'guard') {
        lines.push(`    requires: [${rule.requires.join(', ')}]`);
        const required: Expr = { all: rule.requires.map((context) => ({ context })) };
        if (rule.when.length === 0) flows.push({ action, allow_when: required });
        else {
          lines.push(`    when: { ${rule.when.map((c) => `${c.key}: ${c.source}`).join(', ')} }`);
          flows.push({ action, allow_when: { any: [required, { not: { all: rule.when.map((c) => c.expr) } }] } });
        }
      }
      if (rule.kind !== 'never') {
        // The sheet's order rules must be satisfiable: never after itself, never both after and not after one tool.
        const after = rule.after.filter((t) => t !== action);
        const notAfter = rule.notAfter.filter((t) => !after.includes(t));
        rule = { ...rule, after, notAfter };
        const saysSomething =
          (rule.confirm !== 'none' && rule.confirm !== 'false') ||
          after.length + notAfter.length + rule.checks.length > 0 ||
          rule.atMost !== undefined;
        if (rule.kind === 'overlay' && !saysSomething) rule = { ...rule, atMost: 1 };
        if (rule.confirm === 'default') {
          lines.push('    requires_confirmation: true');
          decl.confirmation = `Confirm the call to ${action}?`;
        } else if (rule.confirm === 'words') {
          lines.push('    confirmation: "Go ahead?"');
          decl.confirmation = 'Go ahead?';
        } else if (rule.confirm === 'false') lines.push('    requires_confirmation: false');
        if (rule.after.length > 0) {
          lines.push(`    after: [${rule.after.join(', ')}]`);
          decl.after = rule.after;
        }
        if (rule.notAfter.length > 0) {
          lines.push(`    not_after: [${rule.notAfter.join(', ')}]`);
          decl.not_after = rule.notAfter;
        }
        if (rule.atMost !== undefined) {
          lines.push(`    at_most: ${rule.atMost}`);
          decl.at_most = rule.atMost;
        }
        if (rule.checks.length > 0) {
          lines.push(`    check: [${rule.checks.map((c) => c.source).join(', ')}]`);
          decl.checks = rule.checks.map((c) => c.check);
        }
      }
      if (Object.keys(decl).length > 0) overlay[action] = decl;
    }
    if (rules.length === 0) lines[lines.length - 1] = 'rules: []';
    return { text: `${lines.join('\n')}\n`, flows, overlay, lines: ruleLines };
  });

// --- Mutations ---------------------------------------------------------------------------------------

const scalar = fc.oneof(
  fc.constantFrom(
    '200',
    '"200"',
    'true',
    '1e3',
    '0',
    '-1',
    '1.5',
    'null',
    '~',
    '[]',
    '{}',
    '[a, b]',
    '{from: x.y}',
    '&a 1',
    '*a',
    '!!str 3',
    '|',
    '>',
    '? x',
    '- x',
    '0x10',
    '.inf',
    '',
    '#',
    '{ amount_over: 1 }',
  ),
  fc.string({ maxLength: 8 }),
);

type Mutation =
  | { kind: 'delete' | 'duplicate' | 'document'; at: number }
  | { kind: 'swap'; at: number; with: number }
  | { kind: 'tab'; at: number; column: number }
  | { kind: 'indent'; at: number; by: number }
  | { kind: 'value'; at: number; value: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const, 'document' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('tab' as const), at: fc.nat(), column: fc.nat() }),
  fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ kind: fc.constant('value' as const), at: fc.nat(), value: scalar }),
);

function mutate(text: string, mutations: readonly Mutation[]): string {
  const lines = text.split('\n');
  for (const m of mutations) {
    const i = m.at % lines.length;
    const line = lines[i] ?? '';
    switch (m.kind) {
      case 'delete':
        lines.splice(i, 1);
        if (lines.length === 0) lines.push('');
        break;
      case 'duplicate':
        lines.splice(i, 0, line);
        break;
      case 'document':
        lines.splice(i, 0, '---');
        break;
      case 'swap': {
        const j = m.with % lines.length;
        lines[i] = lines[j] ?? '';
        lines[j] = line;
        break;
      }
      case 'tab': {
        const c = m.column % (line.length + 1);
        lines[i] = `${line.slice(0, c)}\t${line.slice(c)}`;
        break;
      }
      case 'indent':
        lines[i] = m.by >= 0 ? `${' '.repeat(m.by)}${line}` : line.replace(new RegExp(`^ {0,${-m.by}}`), '');
        break;
      case 'value': {
        const colon = line.indexOf(': ');
        lines[i] = colon >= 0 ? `${line.slice(0, colon + 2)}${m.value}` : `${line}: ${m.value}`;
        break;
      }
    }
  }
  return lines.join('\n');
}

const SEED = SHOP_SHEET_EXTENDED;

// --- Properties --------------------------------------------------------------------------------------

describe('sheet fuzz: compileSheet never throws, and every refusal has a line of the text', () => {
  it('random strings of any characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expectSound(text);
      }),
      { numRuns: RUNS },
    );
  });

  it('random strings of YAML pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...YAML_PIECES), { maxLength: 40 }), (pieces) => {
        expectSound(pieces.join(''));
      }),
      { numRuns: RUNS },
    );
  });

  it('random sheets built from the grammar, valid or not', () => {
    fc.assert(
      fc.property(grammarSheet, (text) => {
        expectSound(text);
      }),
      { numRuns: RUNS },
    );
  });

  it('valid sheets mutated: lines deleted, duplicated, swapped; tabs; indentation; values; a second document', () => {
    fc.assert(
      fc.property(validSheet, fc.array(mutation, { minLength: 1, maxLength: 4 }), (sheet, mutations) => {
        expectSound(mutate(sheet.text, mutations));
      }),
      { numRuns: RUNS },
    );
  });

  it('the reference example sheet mutated', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        expectSound(mutate(SEED, mutations));
      }),
      { numRuns: RUNS },
    );
  });

  it('CRLF line endings read as LF', () => {
    fc.assert(
      fc.property(validSheet, (sheet) => {
        const lf = compileSheet(sheet.text);
        const crlf = compileSheet(sheet.text.replaceAll('\n', '\r\n'));
        expect(crlf.ok && lf.ok && canonicalJson(crlf.rulebook) === canonicalJson(lf.rulebook)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('sheet fuzz: valid sheets compile to what docs/rule-sheets.md says', () => {
  it('every valid sheet compiles to the modelled rulebook and overlay, each flow at its rule’s line', () => {
    fc.assert(
      fc.property(validSheet, (sheet) => {
        const r = compileSheet(sheet.text);
        expect(r.ok, JSON.stringify(r.ok ? null : r.problems)).toBe(true);
        if (!r.ok) return;
        expect(canonicalJson(r.rulebook)).toBe(canonicalJson(canonicalRulebook(sheet.flows)));
        expect(canonicalJson(r.overlay.tools)).toBe(canonicalJson(sheet.overlay));
        for (const flow of sheet.flows) expect(r.sourceMap.flows[flow.action]).toEqual({ line: sheet.lines[flow.action] });
        expectSound(sheet.text);
      }),
      { numRuns: RUNS },
    );
  });
});
