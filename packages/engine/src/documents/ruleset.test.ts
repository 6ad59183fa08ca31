// The rule set format: a valid set, and each refusal with its code, path, line and the rules at fault.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { MAX_PINS, type PinContext, type RuleStatus, readRuleset, resolvePins, validateRuleset } from './ruleset.ts';

const SUPPORT = `{
  "name": "Support",
  "description": "What the support agent is held to.",
  "tags": ["support", "refunds"],
  "pins": [
    {"rule_id": "policies/refunds.policy.json", "version_id": 2},
    {"rule_id": "sheets/shop.rules.yaml"},
    {"rule_id": "colang/shop.co", "version_id": 1}
  ]
}`;

function refusal(text: string, context?: PinContext): { problems: Diagnostic[]; rules: string[] } {
  const r = readRuleset(text, context);
  if (r.ok) throw new Error('expected a refusal');
  return r;
}

function brief(problems: Diagnostic[]) {
  return problems.map((p) => ({ code: p.code, path: p.path, line: p.line }));
}

function withPins(pins: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: 'Support', ...extra, pins }, null, 2);
}

/** A store of rules: id -> status, stored versions and the running one (the newest unless given; null: none). */
function storeOf(rules: Record<string, [RuleStatus, number[], (number | null)?]>): PinContext {
  return {
    rule: (id) => {
      const r = rules[id];
      if (r === undefined) return undefined;
      const running = r[2] === undefined ? (r[1].at(-1) ?? null) : r[2];
      return { status: r[0], hasVersion: (v: number) => r[1].includes(v), running };
    },
  };
}

describe('readRuleset', () => {
  it('reads a set with its pins, tags and description', () => {
    expect(readRuleset(SUPPORT)).toEqual({
      ok: true,
      problems: [],
      ruleset: {
        name: 'Support',
        description: 'What the support agent is held to.',
        tags: ['support', 'refunds'],
        pins: [
          { rule_id: 'policies/refunds.policy.json', version_id: 2 },
          { rule_id: 'sheets/shop.rules.yaml' },
          { rule_id: 'colang/shop.co', version_id: 1 },
        ],
      },
    });
  });

  it('refuses a set with no pins (RULESET_EMPTY at /pins)', () => {
    expect(brief(refusal(withPins([])).problems)).toEqual([{ code: 'RULESET_EMPTY', path: '/pins', line: 3 }]);
  });

  it('refuses a rule pinned twice, at the second pin, naming the rule', () => {
    const text = withPins([{ rule_id: 'sheets/shop.rules.yaml' }, { rule_id: 'sheets/shop.rules.yaml', version_id: 3 }]);
    const r = refusal(text);
    expect(brief(r.problems)).toEqual([{ code: 'DUPLICATE_PIN', path: '/pins/1/rule_id', line: 8 }]);
    expect(r.problems[0]?.message).toContain('sheets/shop.rules.yaml is pinned already (pin 0)');
    expect(r.rules).toEqual(['sheets/shop.rules.yaml']);
  });

  it(`refuses more than ${MAX_PINS} pins, naming the rules past the limit`, () => {
    const pins = Array.from({ length: MAX_PINS + 2 }, (_, i) => ({ rule_id: `colang/r${i}.co` }));
    const r = refusal(withPins(pins));
    expect(r.problems.map((p) => [p.code, p.path])).toEqual([['RULESET_TOO_LARGE', '/pins']]);
    expect(r.rules).toEqual([`colang/r${MAX_PINS}.co`, `colang/r${MAX_PINS + 1}.co`]);
    expect(readRuleset(withPins(pins.slice(0, MAX_PINS))).ok).toBe(true);
  });

  it.each([
    ['catalogue.yaml', 'is a catalogue'],
    ['rulesets/other.ruleset.json', 'is a rule set'],
    ['agents/support.agent.yaml', 'is an agent'],
    ['policies/x.json', 'is no document id'],
  ])('refuses a pin of %s (WRONG_DOCUMENT_KIND)', (rule_id, words) => {
    const r = refusal(withPins([{ rule_id }]));
    expect(brief(r.problems)).toEqual([{ code: 'WRONG_DOCUMENT_KIND', path: '/pins/0/rule_id', line: 5 }]);
    expect(r.problems[0]?.message).toContain(words);
    expect(r.rules).toEqual([rule_id]);
  });

  it('refuses a version_id that is not a positive integer', () => {
    for (const version_id of [0, -1, '2', 1.5]) {
      const text = JSON.stringify({ name: 'S', pins: [{ rule_id: 'colang/a.co', version_id }] });
      expect(refusal(text).problems.map((p) => [p.code, p.path])).toContainEqual(['INVALID_VALUE', '/pins/0/version_id']);
    }
  });

  it('with a store, refuses a rule the member cannot see and a version that does not exist, naming every rule at fault', () => {
    const store = storeOf({ 'policies/refunds.policy.json': ['active', [1, 2]], 'sheets/shop.rules.yaml': ['active', [1]] });
    const r = refusal(SUPPORT, store);
    expect(brief(r.problems)).toEqual([{ code: 'RULE_NOT_VISIBLE', path: '/pins/2/rule_id', line: 8 }]);
    expect(r.problems[0]?.message).toBe('colang/shop.co is not a rule you can see');
    const missing = refusal(withPins([{ rule_id: 'policies/refunds.policy.json', version_id: 3 }, { rule_id: 'colang/x.co' }]), store);
    expect(missing.problems.map((p) => p.code)).toEqual(['VERSION_NOT_FOUND', 'RULE_NOT_VISIBLE']);
    expect(missing.problems[0]?.message).toBe('version 3 of policies/refunds.policy.json does not exist');
    expect(missing.rules).toEqual(['policies/refunds.policy.json', 'colang/x.co']);
  });

  it('with a store, refuses a disabled or archived rule, and takes draft and test ones', () => {
    const store = storeOf({
      'policies/a.policy.json': ['disabled', [1]],
      'policies/b.policy.json': ['archived', [1]],
      'policies/c.policy.json': ['draft', [1]],
      'policies/d.policy.json': ['test', [1]],
    });
    const r = refusal(
      withPins([
        { rule_id: 'policies/a.policy.json' },
        { rule_id: 'policies/b.policy.json', version_id: 1 },
        { rule_id: 'policies/c.policy.json' },
      ]),
      store,
    );
    expect(r.problems.map((p) => [p.code, p.path])).toEqual([
      ['RULE_NOT_PINNABLE', '/pins/0/rule_id'],
      ['RULE_NOT_PINNABLE', '/pins/1/rule_id'],
    ]);
    expect(r.problems[1]?.message).toBe('policies/b.policy.json is archived; a set cannot pin an archived rule');
    expect(r.rules).toEqual(['policies/a.policy.json', 'policies/b.policy.json']);
    expect(
      readRuleset(withPins([{ rule_id: 'policies/c.policy.json' }, { rule_id: 'policies/d.policy.json', version_id: 1 }]), store).ok,
    ).toBe(true);
  });

  it('keeps status out of the text: status, replaced_by and unknown members are refused at every level', () => {
    const text = `{
  "name": "",
  "status": "draft",
  "tags": ["a", "a", 3],
  "pins": [{"rule_id": "colang/a.co", "version": 2}]
}`;
    expect(brief(refusal(text).problems)).toEqual([
      { code: 'INVALID_VALUE', path: '/name', line: 2 },
      { code: 'UNKNOWN_MEMBER', path: '/status', line: 3 },
      { code: 'DUPLICATE_VALUE', path: '/tags/1', line: 4 },
      { code: 'INVALID_TYPE', path: '/tags/2', line: 4 },
      { code: 'UNKNOWN_MEMBER', path: '/pins/0/version', line: 5 },
    ]);
  });

  it('reports text that is not JSON, and duplicate members, with their lines', () => {
    expect(brief(refusal('{\n  "name": "S",\n  "pins": [\n}').problems)).toEqual([{ code: 'NOT_JSON', path: '', line: 4 }]);
    const twice = '{\n  "name": "S",\n  "name": "T",\n  "pins": [{"rule_id": "colang/a.co"}]\n}';
    expect(brief(refusal(twice).problems)).toEqual([{ code: 'DUPLICATE_MEMBER', path: '/name', line: 3 }]);
  });

  it('validateRuleset refuses what is not an object', () => {
    const problems: Diagnostic[] = [];
    expect(validateRuleset([], problems)).toBeUndefined();
    expect(problems.map((p) => p.code)).toEqual(['INVALID_TYPE']);
  });
});

describe('every problem of every pin, once', () => {
  const store = storeOf({
    'policies/a.policy.json': ['active', [1, 2]],
    'policies/off.policy.json': ['disabled', [1]],
    'sheets/new.rules.yaml': ['active', [1], null],
  });
  const problemsOf = (pins: unknown[]) => {
    const r = readRuleset(withPins(pins), store);
    return r.ok ? { problems: [], rules: [] } : { problems: r.problems.map((p) => [p.code, p.path]), rules: r.rules };
  };

  it('a rule pinned at a missing version and again: the version at the first pin, the duplicate at the second', () => {
    const r = problemsOf([{ rule_id: 'policies/a.policy.json', version_id: 9 }, { rule_id: 'policies/a.policy.json' }]);
    expect(r.problems).toEqual([
      ['VERSION_NOT_FOUND', '/pins/0/version_id'],
      ['DUPLICATE_PIN', '/pins/1/rule_id'],
    ]);
    expect(r.rules).toEqual(['policies/a.policy.json']);
  });

  it('a rule the member cannot see, pinned twice: not visible once, then the duplicate', () => {
    const r = problemsOf([{ rule_id: 'colang/nope.co' }, { rule_id: 'colang/nope.co' }]);
    expect(r.problems).toEqual([
      ['RULE_NOT_VISIBLE', '/pins/0/rule_id'],
      ['DUPLICATE_PIN', '/pins/1/rule_id'],
    ]);
    expect(r.rules).toEqual(['colang/nope.co']);
  });

  it("a duplicate's own missing version is its own problem; a disabled rule at a missing version has both", () => {
    expect(problemsOf([{ rule_id: 'policies/a.policy.json' }, { rule_id: 'policies/a.policy.json', version_id: 7 }]).problems).toEqual([
      ['DUPLICATE_PIN', '/pins/1/rule_id'],
      ['VERSION_NOT_FOUND', '/pins/1/version_id'],
    ]);
    // Problems come in the order of the text: rule_id before version_id.
    expect(problemsOf([{ rule_id: 'policies/off.policy.json', version_id: 4 }]).problems).toEqual([
      ['RULE_NOT_PINNABLE', '/pins/0/rule_id'],
      ['VERSION_NOT_FOUND', '/pins/0/version_id'],
    ]);
  });

  it('refuses a pin with no version of a rule with no running version: there is no version for it to take', () => {
    const r = readRuleset(withPins([{ rule_id: 'sheets/new.rules.yaml' }]), store);
    expect(r.ok ? [] : r.problems.map((p) => [p.code, p.path, p.message])).toEqual([
      [
        'VERSION_NOT_FOUND',
        '/pins/0/rule_id',
        'sheets/new.rules.yaml has no running version for this pin to take; name a stored version with version_id',
      ],
    ]);
    expect(readRuleset(withPins([{ rule_id: 'sheets/new.rules.yaml', version_id: 1 }]), store).ok).toBe(true);
  });

  it('generated pin lists: each problem exactly once, as a reference reading says, and each rule at fault once', () => {
    const rules: Record<string, [RuleStatus, number[], (number | null)?]> = {
      'policies/a.policy.json': ['active', [1, 2]],
      'sheets/b.rules.yaml': ['draft', [1]],
      'colang/c.co': ['disabled', [1, 3]],
      'colang/d.co': ['active', [2], null],
    };
    const ids = [...Object.keys(rules), 'policies/hidden.policy.json', 'colang/gone.co', 'agents/x.agent.yaml', 'catalogue.yaml'];
    const pin = fc.record({ rule_id: fc.constantFrom(...ids), version_id: fc.constantFrom(1, 2, 3, 9) }, { requiredKeys: ['rule_id'] });
    const context = storeOf(rules);
    fc.assert(
      fc.property(fc.array(pin, { minLength: 1, maxLength: 12 }), (pins) => {
        // The reference: a rule's own problems at its first pin, a pin's version at every pin.
        const want: [string, string][] = [];
        const atFault: string[] = [];
        const seen = new Set<string>();
        pins.forEach((p, i) => {
          const at = `/pins/${i}`;
          const add = (code: string, path: string) => {
            want.push([code, path]);
            if (!atFault.includes(p.rule_id)) atFault.push(p.rule_id);
          };
          const first = !seen.has(p.rule_id);
          seen.add(p.rule_id);
          const stored = rules[p.rule_id];
          const pinnable = !p.rule_id.startsWith('agents/') && p.rule_id !== 'catalogue.yaml';
          if (!first) add('DUPLICATE_PIN', `${at}/rule_id`);
          else if (!pinnable) add('WRONG_DOCUMENT_KIND', `${at}/rule_id`);
          if (!pinnable) return;
          if (stored === undefined) {
            if (first) add('RULE_NOT_VISIBLE', `${at}/rule_id`);
            return;
          }
          if (p.version_id !== undefined && !stored[1].includes(p.version_id)) add('VERSION_NOT_FOUND', `${at}/version_id`);
          if (p.version_id === undefined && stored[2] === null) add('VERSION_NOT_FOUND', `${at}/rule_id`);
          if (first && (stored[0] === 'disabled' || stored[0] === 'archived')) add('RULE_NOT_PINNABLE', `${at}/rule_id`);
        });
        const r = readRuleset(withPins(pins), context);
        const got = r.ok ? [] : r.problems.map((p) => [p.code, p.path ?? '']);
        // Problems come in the order of the text; the reference lists them in the order it finds them.
        const byPlace = (a: string[], b: string[]) => `${a[1]} ${a[0]}`.localeCompare(`${b[1]} ${b[0]}`);
        expect([...got].sort(byPlace)).toEqual([...want].sort(byPlace));
        expect(new Set(got.map((g) => g.join(' '))).size).toBe(got.length);
        expect(r.ok ? [] : r.rules).toEqual(atFault);
      }),
      { numRuns: 300 },
    );
  });
});

describe('resolvePins', () => {
  it("pins a pin that names no version at its rule's running version, and leaves named versions alone", () => {
    const store = storeOf({ 'policies/a.policy.json': ['active', [1, 2, 3], 2], 'sheets/b.rules.yaml': ['active', [1, 4]] });
    const read = readRuleset(withPins([{ rule_id: 'policies/a.policy.json' }, { rule_id: 'sheets/b.rules.yaml', version_id: 1 }]), store);
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    expect(resolvePins(read.ruleset, store).pins).toEqual([
      { rule_id: 'policies/a.policy.json', version_id: 2 },
      { rule_id: 'sheets/b.rules.yaml', version_id: 1 },
    ]);
  });
});
