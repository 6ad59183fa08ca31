// The rule set format: a valid set, and each refusal with its code, path and line.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import { readRuleset, validateRuleset } from './ruleset.ts';

const SUPPORT = `{
  "name": "Support",
  "description": "What the support agent is held to.",
  "tags": ["support", "refunds"],
  "status": "draft",
  "pins": [
    {"document": "policies/refunds.policy.json", "sequence": 2},
    {"document": "sheets/shop.rules.yaml"},
    {"document": "colang/shop.co", "sequence": 1}
  ]
}`;

function problemsOf(text: string, ...rest: Parameters<typeof readRuleset> extends [string, ...infer R] ? R : never): Diagnostic[] {
  const r = readRuleset(text, ...rest);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

function brief(problems: Diagnostic[]) {
  return problems.map((p) => ({ code: p.code, path: p.path, line: p.range?.start.line }));
}

function withPins(pins: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: 'Support', status: 'draft', ...extra, pins }, null, 2);
}

describe('readRuleset', () => {
  it('reads a set with its pins, tags and description', () => {
    const r = readRuleset(SUPPORT);
    expect(r).toEqual({
      ok: true,
      problems: [],
      ruleset: {
        name: 'Support',
        description: 'What the support agent is held to.',
        tags: ['support', 'refunds'],
        status: 'draft',
        pins: [
          { document: 'policies/refunds.policy.json', sequence: 2 },
          { document: 'sheets/shop.rules.yaml' },
          { document: 'colang/shop.co', sequence: 1 },
        ],
      },
    });
  });

  it('refuses a set with no pins (RULESET_EMPTY at /pins)', () => {
    expect(brief(problemsOf(withPins([])))).toEqual([{ code: 'RULESET_EMPTY', path: '/pins', line: 4 }]);
  });

  it('refuses a document pinned twice, at the second pin', () => {
    const text = withPins([{ document: 'sheets/shop.rules.yaml' }, { document: 'sheets/shop.rules.yaml', sequence: 3 }]);
    const problems = problemsOf(text);
    expect(brief(problems)).toEqual([{ code: 'DUPLICATE_PIN', path: '/pins/1/document', line: 9 }]);
    expect(problems[0]?.message).toContain('sheets/shop.rules.yaml is pinned already (pin 0)');
  });

  it.each([
    ['catalogue.yaml', 'is a catalogue'],
    ['rulesets/other.ruleset.json', 'is a rule set'],
    ['agents/support.agent.yaml', 'is an agent'],
    ['policies/x.json', 'is no document id'],
  ])('refuses a pin of %s (WRONG_DOCUMENT_KIND)', (document, words) => {
    const problems = problemsOf(withPins([{ document }]));
    expect(brief(problems)).toEqual([{ code: 'WRONG_DOCUMENT_KIND', path: '/pins/0/document', line: 6 }]);
    expect(problems[0]?.message).toContain(words);
  });

  it('refuses a sequence that is not a positive integer', () => {
    for (const sequence of [0, -1, '2', 1.5]) {
      const text = JSON.stringify({ name: 'S', status: 'draft', pins: [{ document: 'colang/a.co', sequence }] });
      const codes = problemsOf(text).map((p) => [p.code, p.path]);
      expect(codes).toContainEqual(['INVALID_VALUE', '/pins/0/sequence']);
    }
  });

  it('asks the store, when given one, whether each pinned document and version exists', () => {
    const stored = new Set(['policies/refunds.policy.json@2', 'sheets/shop.rules.yaml', 'colang/shop.co']);
    const exists = (id: string, sequence?: number) => stored.has(sequence === undefined ? id : `${id}@${sequence}`);
    const problems = problemsOf(SUPPORT, { exists });
    expect(brief(problems)).toEqual([{ code: 'REFERENCE_NOT_FOUND', path: '/pins/2/sequence', line: 9 }]);
    expect(problems[0]?.message).toBe('version 1 of colang/shop.co does not exist');
    expect(readRuleset(SUPPORT, { exists: () => true }).ok).toBe(true);
  });

  it('takes replaced_by only on an archived set, naming another rule set', () => {
    const archived = withPins([{ document: 'colang/a.co' }], { status: 'archived', replaced_by: 'rulesets/next.ruleset.json' });
    expect(readRuleset(archived).ok).toBe(true);
    const active = withPins([{ document: 'colang/a.co' }], { status: 'active', replaced_by: 'rulesets/next.ruleset.json' });
    expect(brief(problemsOf(active))).toEqual([{ code: 'REPLACED_BY_NOT_ARCHIVED', path: '/replaced_by', line: 4 }]);
    const wrong = withPins([{ document: 'colang/a.co' }], { status: 'archived', replaced_by: 'colang/a.co' });
    expect(brief(problemsOf(wrong))).toEqual([{ code: 'WRONG_DOCUMENT_KIND', path: '/replaced_by', line: 4 }]);
    const self = withPins([{ document: 'colang/a.co' }], { status: 'archived', replaced_by: 'rulesets/s.ruleset.json' });
    expect(brief(problemsOf(self, undefined, 'rulesets/s.ruleset.json'))).toEqual([
      { code: 'INVALID_VALUE', path: '/replaced_by', line: 4 },
    ]);
  });

  it('refuses unknown members at every level, and lists every problem in line order', () => {
    const text = `{
  "name": "",
  "stauts": "draft",
  "tags": ["a", "a", 3],
  "pins": [{"document": "colang/a.co", "version": 2}]
}`;
    expect(brief(problemsOf(text))).toEqual(
      [
        { code: 'INVALID_VALUE', path: '/name', line: 2 },
        { code: 'UNKNOWN_MEMBER', path: '/stauts', line: 3 },
        { code: 'DUPLICATE_VALUE', path: '/tags/1', line: 4 },
        { code: 'INVALID_TYPE', path: '/tags/2', line: 4 },
        { code: 'UNKNOWN_MEMBER', path: '/pins/0/version', line: 5 },
        { code: 'MISSING_MEMBER', path: '', line: 1 },
      ].sort((a, b) => a.line - b.line),
    );
  });

  it('refuses a status outside draft, test, active and archived', () => {
    const text = withPins([{ document: 'colang/a.co' }], { status: 'live' });
    expect(brief(problemsOf(text))).toEqual([{ code: 'INVALID_VALUE', path: '/status', line: 3 }]);
  });

  it('reports text that is not JSON, and duplicate members, with their lines', () => {
    expect(brief(problemsOf('{\n  "name": "S",\n  "pins": [\n}'))).toEqual([{ code: 'NOT_JSON', path: '', line: 4 }]);
    const twice = '{\n  "name": "S",\n  "name": "T",\n  "status": "draft",\n  "pins": [{"document": "colang/a.co"}]\n}';
    expect(brief(problemsOf(twice))).toEqual([{ code: 'DUPLICATE_MEMBER', path: '/name', line: 3 }]);
  });

  it('validateRuleset refuses what is not an object', () => {
    const problems: Diagnostic[] = [];
    expect(validateRuleset([], problems)).toBeUndefined();
    expect(problems.map((p) => p.code)).toEqual(['INVALID_TYPE']);
  });
});
