// The Colang front end (docs/colang.md, "Grammar"): every construct, every problem with its code and
// exact line, comments, and the canonical form it lowers to. Kleene semantics are tested in rulebook/.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../rulebook/canonical.ts';
import { type Expr, RULEBOOK_FORMAT, type Rulebook } from '../rulebook/types.ts';
import { type ColangResult, parseColang } from './parse.ts';

function colang(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

function parsed(text: string): Extract<ColangResult, { ok: true }> {
  const r = parseColang(text);
  if (!r.ok) throw new Error(`expected Colang to parse: ${JSON.stringify(r.problems)}`);
  return r;
}

function flows(text: string): Rulebook['flows'] {
  return parsed(text).rulebook.flows;
}

/** The guard of the only flow, `a`, for a one-line body. */
function guard(body: string, ...before: string[]): Expr {
  const [flow] = flows(colang(...before, 'define flow a', `  allow when ${body}`));
  if (!flow || !('allow_when' in flow)) throw new Error('expected an allow flow');
  return flow.allow_when;
}

/** The problems as [line, code, message]; every one an error placed within its line. */
function problems(text: string): [number, string, string][] {
  const r = parseColang(text);
  if (r.ok) throw new Error(`expected problems, got ${JSON.stringify(r.rulebook)}`);
  return r.problems.map((p) => {
    expect(p.severity).toBe('error');
    expect(p.column).toBeGreaterThanOrEqual(1);
    expect(p.endLine).toBe(p.line);
    expect(p.endColumn).toBeGreaterThanOrEqual(p.column ?? 1);
    return [p.line ?? -1, p.code, p.message];
  });
}

/** Asserts exactly these problems, in order: line, code and a fragment of the message. */
function expectProblems(text: string, want: [number, string, string][]): void {
  const got = problems(text);
  expect(got.map(([line, code]) => [line, code])).toEqual(want.map(([line, code]) => [line, code]));
  got.forEach(([, , message], i) => {
    expect(message).toContain(want[i]?.[2]);
  });
}

/** Asserts that the problems include this one (a refused body line also leaves its flow without a body). */
function expectProblem(text: string, line: number, code: string, fragment: string): void {
  const got = problems(text);
  expect(
    got.some(([l, c, m]) => l === line && c === code && m.includes(fragment)),
    JSON.stringify(got),
  ).toBe(true);
}

const ctx = (name: string): Expr => ({ context: name });
const gt = (arg: string, decimal: string): Expr => ({ arg, op: 'gt', value: { decimal } });

describe('parseColang: the constructs', () => {
  it('reads a refusal flow', () => {
    expect(parsed(colang('define flow delete_customer', '  refuse')).rulebook).toEqual({
      format: RULEBOOK_FORMAT,
      flows: [{ action: 'delete_customer', refuse: true }],
    });
  });

  it('reads docs/colang.md’s example to the IR it shows', () => {
    const r = parsed(
      colang(
        "# The shop's rulebook.",
        'define context when_refund_card on refund_card',
        '  amount > 200',
        '',
        'define flow refund_card',
        '  allow when not $when_refund_card or $supervisor_approved',
        '',
        'define flow delete_customer',
        '  refuse',
      ),
    );
    expect(canonicalJson(r.rulebook)).toBe(
      canonicalJson({
        flows: [
          { action: 'delete_customer', refuse: true },
          {
            action: 'refund_card',
            allow_when: { any: [{ context: 'supervisor_approved' }, { not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }] },
          },
        ],
        format: 'tollgate/rulebook@1',
      }),
    );
    expect(r.sourceMap).toEqual({
      flows: { refund_card: { line: 5 }, delete_customer: { line: 8 } },
      contexts: { when_refund_card: { line: 2 } },
    });
  });

  it('names the file in the source map when given one, and keeps positions out of the rulebook', () => {
    const r = parseColang(colang('define flow a', '  refuse'), 'rules.co');
    expect(r.ok && r.sourceMap.file).toBe('rules.co');
    expect(r.ok && Object.keys(r.rulebook).sort()).toEqual(['flows', 'format']);
  });

  it('reads every comparison operator', () => {
    const ops = [
      ['>', 'gt'],
      ['<', 'lt'],
      ['>=', 'gte'],
      ['<=', 'lte'],
      ['==', 'eq'],
    ] as const;
    for (const [symbol, op] of ops) {
      expect(guard('$c', 'define context c on a', `  amount ${symbol} 10`)).toEqual({ arg: 'amount', op, value: { decimal: '10' } });
    }
  });

  it('reads every literal: decimals (negative, fractional, up to 18 digits), strings with JSON escapes, booleans', () => {
    const literal = (text: string) => guard('$c', 'define context c on a', `  v == ${text}`);
    expect(literal('0')).toEqual({ arg: 'v', op: 'eq', value: { decimal: '0' } });
    expect(literal('-3')).toEqual({ arg: 'v', op: 'eq', value: { decimal: '-3' } });
    expect(literal('10.25')).toEqual({ arg: 'v', op: 'eq', value: { decimal: '10.25' } });
    expect(literal('0.123456789012345678')).toEqual({ arg: 'v', op: 'eq', value: { decimal: '0.123456789012345678' } });
    expect(literal('"DE"')).toEqual({ arg: 'v', op: 'eq', value: { string: 'DE' } });
    expect(literal('""')).toEqual({ arg: 'v', op: 'eq', value: { string: '' } });
    expect(literal('"say \\"hi\\"\\n\\u00e9"')).toEqual({ arg: 'v', op: 'eq', value: { string: 'say "hi"\né' } });
    expect(literal('true')).toEqual({ arg: 'v', op: 'eq', value: { boolean: true } });
    expect(literal('false')).toEqual({ arg: 'v', op: 'eq', value: { boolean: false } });
  });

  it('reads arguments with capitals, digits and _', () => {
    expect(guard('$c', 'define context c on a', '  Total_2 > 1')).toEqual(gt('Total_2', '1'));
    expect(guard('$c', 'define context c on a', '  _x > 1')).toEqual(gt('_x', '1'));
  });

  it('inlines a computed context: one comparison as itself, several as all of them', () => {
    expect(guard('$big', 'define context big on a', '  amount > 200')).toEqual(gt('amount', '200'));
    expect(guard('$big', 'define context big on a', '  amount > 200', '  currency == "EUR"')).toEqual({
      all: [gt('amount', '200'), { arg: 'currency', op: 'eq', value: { string: 'EUR' } }],
    });
  });

  it('inlines a context defined after the flow that reads it, and wherever it is read', () => {
    expect(
      flows(colang('define flow a', '  allow when $big and not ($big and $x)', '', 'define context big on a', '  amount > 200')),
    ).toEqual([{ action: 'a', allow_when: { all: [gt('amount', '200'), { not: { all: [gt('amount', '200'), ctx('x')] } }] } }]);
  });

  it('keeps a context nobody defines as a host context', () => {
    expect(guard('$supervisor_approved')).toEqual(ctx('supervisor_approved'));
  });

  it('reads a context that no flow reads without a problem', () => {
    expect(flows(colang('define context unused on a', '  x > 1'))).toEqual([]);
  });

  it('gives "and" precedence over "or", "not" over both, and parentheses over all', () => {
    // Parts sort by their canonical JSON: {"all"…} and {"any"…} before {"context"…} before {"not"…}.
    expect(guard('$a or $b and $c')).toEqual({ any: [{ all: [ctx('b'), ctx('c')] }, ctx('a')] });
    expect(guard('($a or $b) and $c')).toEqual({ all: [{ any: [ctx('a'), ctx('b')] }, ctx('c')] });
    expect(guard('not $a and $b')).toEqual({ all: [ctx('b'), { not: ctx('a') }] });
    expect(guard('not ($a and $b)')).toEqual({ not: { all: [ctx('a'), ctx('b')] } });
    expect(guard('(((($a))))')).toEqual(ctx('a'));
  });

  it('accepts tool names with dots, hyphens and capitals as actions', () => {
    expect(flows(colang('define context c on Shop.refund-v2', '  x > 1', 'define flow Shop.refund-v2', '  allow when $c'))).toEqual([
      { action: 'Shop.refund-v2', allow_when: gt('x', '1') },
    ]);
  });

  it('reads an empty file, and a file of comments, as an empty rulebook', () => {
    expect(parsed('').rulebook).toEqual({ format: RULEBOOK_FORMAT, flows: [] });
    expect(parsed(colang('# nothing', '', '   # still nothing')).rulebook).toEqual({ format: RULEBOOK_FORMAT, flows: [] });
  });

  it('reads CRLF line endings as LF', () => {
    expect(parseColang('define flow a\r\n  refuse\r\n')).toEqual(parseColang('define flow a\n  refuse\n'));
  });
});

describe('parseColang: comments', () => {
  it('ignores whole-line comments, indented comments and comments after code', () => {
    expect(
      flows(
        colang(
          '# header',
          'define context big on a # a trailing comment',
          '  # an indented comment between comparisons',
          '  amount > 200 # over two hundred',
          '    # a comment indented further',
          'define flow a  # the flow',
          '  allow when not $big or $x # the guard',
        ),
      ),
    ).toEqual([{ action: 'a', allow_when: { any: [ctx('x'), { not: gt('amount', '200') }] } }]);
  });

  it('keeps a # inside a string, even after an escaped quote', () => {
    expect(guard('$c', 'define context c on a', '  tag == "#1 \\"#2\\" #3" # the comment')).toEqual({
      arg: 'tag',
      op: 'eq',
      value: { string: '#1 "#2" #3' },
    });
  });
});

describe('parseColang: canonical form', () => {
  it('removes double negation', () => {
    expect(guard('not not $x')).toEqual(ctx('x'));
    expect(guard('not not not $x')).toEqual({ not: ctx('x') });
    expect(guard('not (not ($x))')).toEqual(ctx('x'));
  });

  it('flattens nested and/or of the same kind, sorts the parts and drops duplicates', () => {
    expect(guard('$c and ($b and ($a and $c))')).toEqual({ all: [ctx('a'), ctx('b'), ctx('c')] });
    expect(guard('$z or ($y or $x) or $y')).toEqual({ any: [ctx('x'), ctx('y'), ctx('z')] });
    expect(guard('$x and $x')).toEqual(ctx('x'));
    expect(guard('($b or $a) and ($a or $b)')).toEqual({ any: [ctx('a'), ctx('b')] });
  });

  it('does not flatten and into or', () => {
    expect(guard('$a or ($b and $c)')).toEqual({ any: [{ all: [ctx('b'), ctx('c')] }, ctx('a')] });
  });

  it('normalises decimals: 200.50 is 200.5, -0 is 0, 1.000 is 1', () => {
    expect(guard('$c', 'define context c on a', '  amount > 200.50')).toEqual(gt('amount', '200.5'));
    expect(guard('$c', 'define context c on a', '  amount > -0')).toEqual(gt('amount', '0'));
    expect(guard('$c', 'define context c on a', '  amount > 1.000')).toEqual(gt('amount', '1'));
  });

  it('sorts flows by action, and gives one canonical JSON for equivalent texts', () => {
    const a = parsed(colang('define flow b', '  allow when $y and $x', 'define flow a', '  refuse'));
    const b = parsed(colang('define flow a', '  refuse', '', 'define flow b', '  allow when ($x) and not not $y and $x'));
    expect(a.rulebook.flows.map((f) => f.action)).toEqual(['a', 'b']);
    expect(canonicalJson(a.rulebook)).toBe(canonicalJson(b.rulebook));
  });

  it('gives one rulebook whatever the computed context is called and however its comparisons are ordered', () => {
    const one = parsed(colang('define context big on a', '  x > 1', '  y < 2', 'define flow a', '  allow when not $big or $ok'));
    const two = parsed(colang('define flow a', '  allow when $ok or not $huge', 'define context huge on a', '  y < 2.0', '  x > 1.00'));
    expect(canonicalJson(one.rulebook)).toBe(canonicalJson(two.rulebook));
  });
});

describe('parseColang: colang_syntax, each at its line', () => {
  it('a define line the grammar does not accept', () => {
    expectProblems(colang('define flw a', '  refuse'), [
      [1, 'colang_syntax', 'expected "define context NAME on ACTION" or "define flow ACTION"'],
    ]);
    expectProblems(colang('define flow a', '  refuse', 'define context c', '  x > 1'), [[3, 'colang_syntax', 'expected "define context']]);
    expectProblems(colang('define flow', '  refuse'), [[1, 'colang_syntax', 'expected "define context']]);
    expectProblems(colang('Define flow a', '  refuse'), [[1, 'colang_syntax', 'expected "define context']]);
    expectProblems(colang('define flow a b', '  refuse'), [[1, 'colang_syntax', 'expected "define context']]);
    expectProblems(colang('allow when $x'), [[1, 'colang_syntax', 'expected "define context']]);
  });

  it('a context name or an action name outside the grammar', () => {
    expectProblems(colang('define context Big on a', '  x > 1'), [[1, 'colang_syntax', '"Big" is not a context name']]);
    expectProblems(colang('define context 1st on a', '  x > 1'), [[1, 'colang_syntax', '"1st" is not a context name']]);
    expectProblems(colang('define context c on a/b', '  x > 1'), [[1, 'colang_syntax', '"a/b" is not an action name']]);
    expectProblems(colang('define flow a:b', '  refuse'), [[1, 'colang_syntax', '"a:b" is not an action name']]);
    expectProblems(colang(`define flow ${'a'.repeat(129)}`, '  refuse'), [[1, 'colang_syntax', 'is not an action name']]);
  });

  it('a body indented by other than two spaces', () => {
    for (const indent of [' ', '   ', '    ']) {
      expectProblem(colang('define flow a', `${indent}refuse`), 2, 'colang_syntax', 'a body line is indented by exactly two spaces');
    }
    expectProblem(
      colang('define context c on a', '   x > 1', 'define flow a', '  allow when $c'),
      2,
      'colang_syntax',
      'exactly two spaces',
    );
    expectProblem(colang('define flow a', '  refuse', ' define flow b', '  refuse'), 3, 'colang_syntax', 'exactly two spaces');
  });

  it('a tab, anywhere on a line', () => {
    expectProblem(colang('define flow a', '\trefuse'), 2, 'colang_syntax', 'a tab; indent with two spaces');
    expectProblems(colang('define flow a', '  refuse', '# a\ttab'), [[3, 'colang_syntax', 'a tab']]);
    expectProblems(colang('define flow\ta', '  refuse'), [
      [1, 'colang_syntax', 'a tab'],
      [2, 'colang_syntax', 'an indented line belongs under a define'],
    ]);
  });

  it('a body outside a define', () => {
    expectProblems(colang('  refuse', 'define flow a', '  refuse'), [[1, 'colang_syntax', 'an indented line belongs under a define']]);
    expectProblems(colang('# only a comment', '', '  amount > 200'), [[3, 'colang_syntax', 'an indented line belongs under a define']]);
  });

  it('a flow with two bodies, at the second', () => {
    expectProblems(colang('define flow a', '  refuse', '  allow when $x'), [
      [3, 'colang_syntax', 'flow a has its body already: one "refuse" or one "allow when" line'],
    ]);
    expectProblems(colang('define flow a', '  allow when $x', '  allow when $y'), [[3, 'colang_syntax', 'flow a has its body already']]);
  });

  it('a flow with no body, at its define line', () => {
    expectProblems(colang('define flow a', '', 'define flow b', '  refuse'), [
      [1, 'colang_syntax', 'flow a has no body: "refuse" or "allow when EXPRESSION"'],
    ]);
    expectProblems(colang('define flow a', '  refuse', 'define flow b'), [[3, 'colang_syntax', 'flow b has no body']]);
  });

  it('a context with no comparison, at its define line', () => {
    expectProblems(colang('define context big on a', '', 'define flow a', '  allow when $big'), [
      [1, 'colang_syntax', 'context big has no comparison; add lines such as "amount > 200"'],
    ]);
  });

  it('a body line that is neither refuse nor allow when, and lines of the other kind of define', () => {
    expectProblem(colang('define flow a', '  permit'), 2, 'colang_syntax', 'a flow body is "refuse" or "allow when EXPRESSION"');
    expectProblem(colang('define flow a', '  allow when'), 2, 'colang_syntax', 'a flow body is "refuse" or "allow when EXPRESSION"');
    expectProblem(colang('define flow a', '  amount > 200'), 2, 'colang_syntax', 'a flow body is "refuse"');
    expectProblem(colang('define context c on a', '  refuse'), 2, 'colang_syntax', 'expected a comparison such as "amount > 200"');
    expectProblem(colang('define context c on a', '  x > 1', '  allow when $y'), 3, 'colang_syntax', 'expected a comparison');
  });

  it('a literal outside the grammar', () => {
    const cases: [string, string][] = [
      ['2x', '2x is not a literal: a decimal (200, 10.50), a "string", true or false'],
      ['01', '01 is not a literal'],
      ['+1', '+1 is not a literal'],
      ['.5', '.5 is not a literal'],
      ['1.', '1. is not a literal'],
      ['1e3', '1e3 is not a literal'],
      ["'DE'", "'DE' is not a literal"],
      ['True', 'True is not a literal'],
      ['null', 'null is not a literal'],
      ['"DE', '"DE is not a well-formed string: write it in double quotes with JSON escapes'],
      ['"a\\q"', 'is not a well-formed string'],
      ['"a" "b"', 'is not a well-formed string'],
      ['0.1234567890123456789', '0.1234567890123456789 has more than 18 fraction digits'],
    ];
    for (const [literal, fragment] of cases) {
      expectProblem(colang('define context c on a', `  v == ${literal}`, 'define flow a', '  allow when $c'), 2, 'colang_syntax', fragment);
    }
  });

  it('an ordering of a string or a boolean', () => {
    for (const op of ['>', '<', '>=', '<=']) {
      expectProblem(
        colang('define context c on a', `  name ${op} "x"`, 'define flow a', '  allow when $c'),
        2,
        'colang_syntax',
        `${op} compares numbers; "x" is not one`,
      );
    }
    expectProblem(colang('define context c on a', '  flag > true'), 2, 'colang_syntax', '> compares numbers; true is not one');
  });

  it('an unclosed parenthesis, a stray one, trailing tokens and a guard that ends early', () => {
    expectProblem(colang('define flow a', '  allow when ($x and $y'), 2, 'colang_syntax', 'a "(" is not closed');
    expectProblem(colang('define flow a', '  allow when $x and $y)'), 2, 'colang_syntax', 'unexpected ")" after the guard');
    expectProblem(
      colang('define flow a', '  allow when $x $y'),
      2,
      'colang_syntax',
      'unexpected "$y" after the guard; join conditions with "and" or "or"',
    );
    expectProblem(colang('define flow a', '  allow when $x and'), 2, 'colang_syntax', 'the guard ends too early');
    expectProblem(colang('define flow a', '  allow when not'), 2, 'colang_syntax', 'the guard ends too early');
    expectProblem(colang('define flow a', '  allow when $x xor $y'), 2, 'colang_syntax', 'unexpected "xor" after the guard');
    expectProblem(colang('define flow a', '  allow when and $x'), 2, 'colang_syntax', 'expected $context, "not" or "(", got "and"');
    expectProblem(colang('define flow a', '  allow when $x & $y'), 2, 'colang_syntax', 'unexpected "&" in the guard');
    expectProblem(colang('define flow a', '  allow when amount > 200'), 2, 'colang_syntax', 'unexpected ">" in the guard');
  });

  it('a $ that names no context', () => {
    expectProblem(colang('define flow a', '  allow when $Approved'), 2, 'colang_syntax', '$Approved is not a context name');
    expectProblem(colang('define flow a', '  allow when $1x'), 2, 'colang_syntax', '$1x is not a context name');
  });
});

describe('parseColang: colang_duplicate and colang_context_action', () => {
  it('a second flow for an action, at the second, naming the first', () => {
    expectProblems(colang('define flow a', '  refuse', '', 'define flow a', '  allow when $x'), [
      [4, 'colang_duplicate', 'a has a flow already (line 1): one flow per action'],
    ]);
  });

  it('a second context of a name, at the second, naming the first', () => {
    expectProblems(colang('define context c on a', '  x > 1', 'define context c on b', '  x > 2', 'define flow a', '  allow when $c'), [
      [3, 'colang_duplicate', 'context c is defined already (line 1)'],
    ]);
  });

  it('a flow reading a context computed from another action’s arguments, at the body line', () => {
    expectProblems(
      colang('define context big on refund_card', '  amount > 200', '', 'define flow charge_card', '  allow when not $big or $x'),
      [[5, 'colang_context_action', "$big is computed from refund_card's arguments, so flow charge_card cannot read it"]],
    );
  });

  it('lists every problem of a file, in line order', () => {
    expectProblems(
      colang(
        'define flow b',
        '  allow when $x and $c',
        'define context c on a',
        '  x > "1"',
        '  y > 2',
        'define flow b',
        '  refuse',
        'bogus',
        '\t',
        'define flow c',
      ),
      [
        [2, 'colang_context_action', '$c is computed from a'],
        [4, 'colang_syntax', '> compares numbers'],
        [6, 'colang_duplicate', 'b has a flow already (line 1)'],
        [8, 'colang_syntax', 'expected "define context'],
        [9, 'colang_syntax', 'a tab'],
        [10, 'colang_syntax', 'flow c has no body'],
      ],
    );
  });
});

describe('parseColang: limits, each a colang_limit at its line (never a stack overflow)', () => {
  it('a guard nested past 64 "not"s and parentheses, at any depth', () => {
    for (const n of [65, 3000, 100_000]) {
      const parens = colang('# deep', 'define flow a', `  allow when ${'('.repeat(n)}$x${')'.repeat(n)}`);
      expectProblems(parens, [[3, 'colang_limit', 'the guard nests more than 64 "not"s and parentheses']]);
      const nots = colang('define flow a', `  allow when ${'not '.repeat(n)}$x`);
      expectProblems(nots, [[2, 'colang_limit', 'the guard nests more than 64 "not"s and parentheses']]);
    }
    // Unclosed: the limit is met before the missing ")" would be.
    expectProblems(colang('define flow a', `  allow when ${'('.repeat(5000)}$x`), [[2, 'colang_limit', 'nests more than 64']]);
  });

  it('64 levels parse; so do many levels side by side, which nest nothing', () => {
    expect(guard(`${'('.repeat(64)}$x${')'.repeat(64)}`)).toEqual({ context: 'x' });
    expect(guard(`${'not '.repeat(64)}$x`)).toEqual({ context: 'x' });
    expect(guard(`${'not '.repeat(32)}(${'not '.repeat(31)}$x)`)).toEqual({ not: { context: 'x' } });
    const side = Array.from({ length: 3000 }, (_, i) => `not (not $c${i})`).join(' and ');
    expect('all' in guard(side) && (guard(side) as { all: Expr[] }).all.length).toBe(3000);
  });

  it('a guard naming more than 4096 contexts; a context of more than 1000 comparisons', () => {
    const terms = Array.from({ length: 4097 }, (_, i) => `$c${i}`).join(' and ');
    expectProblems(colang('define flow a', `  allow when ${terms}`), [
      [2, 'colang_limit', 'the guard names 4097 contexts; a guard names at most 4096'],
    ]);
    const comparisons = Array.from({ length: 1001 }, (_, i) => `  n${i} > 1`);
    expectProblems(colang('define context big on a', ...comparisons, 'define flow a', '  allow when not $big'), [
      [1002, 'colang_limit', 'a context holds at most 1000 comparisons'],
    ]);
  });

  it('a context named many times is lowered once: 4096 mentions of 1000 comparisons stay quick and small', () => {
    const comparisons = Array.from({ length: 1000 }, (_, i) => `  n${i} > 1`);
    const mentions = Array.from({ length: 4096 }, () => '$big').join(' or ');
    const [flow] = flows(colang('define context big on a', ...comparisons, 'define flow a', `  allow when ${mentions}`));
    expect(flow && 'allow_when' in flow && 'all' in flow.allow_when && flow.allow_when.all.length).toBe(1000);
  });

  it('a lone carriage return, once, at the line it ends', () => {
    expectProblems('define flow a\n  refuse\rdefine flow b\n  refuse\n', [[2, 'colang_syntax', 'a line ends in a lone carriage return']]);
    expect(flows('define flow a\r\n  refuse\r\n')).toEqual([{ action: 'a', refuse: true }]);
  });
});

describe('where a problem stands in its line', () => {
  const at = (text: string) => {
    const r = parseColang(text);
    return r.ok
      ? []
      : r.problems.map((p) => [
          p.line,
          p.column,
          p.endColumn,
          text.split('\n')[(p.line ?? 1) - 1]?.slice((p.column ?? 1) - 1, (p.endColumn ?? 1) - 1),
        ]);
  };

  it('names the faulty name, the guard, the tab and the $context, not column 1', () => {
    expect(at(colang('define context Big on pay', '  amount > 1'))).toEqual([[1, 16, 19, 'Big']]);
    expect(at(colang('define flow pay', '  allow when $a and and'))).toContainEqual([2, 14, 24, '$a and and']);
    expect(at(colang('define flow pay', '  \trefuse'))).toContainEqual([2, 3, 4, '\t']);
    const cross = at(colang('define context big on refund', '  amount > 1', 'define flow pay', '  allow when not $big'));
    expect(cross).toEqual([[4, 18, 22, '$big']]);
  });

  it('spans a statement without its indentation or comment', () => {
    expect(at(colang('define flow pay', '  refuse', '  refuse  # again'))).toEqual([[3, 3, 9, 'refuse']]);
  });
});
