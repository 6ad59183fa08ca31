// The one code registry: every code once, spelled by its family's convention (the seeds' codes as the seeds
// spell them), and every reader's registry a view of it.
import { describe, expect, it } from 'vitest';
import { COLANG_CODES } from '../colang/codes.ts';
import { DOCUMENT_CODES } from '../documents/codes.ts';
import { POLICY_CODES } from '../policy/codes.ts';
import { CATALOGUE_CODES } from '../rulebook/catalogue.ts';
import { CHECK_CODES } from '../rulebook/check.ts';
import { TOOL_CHECK_CODES } from '../rulebook/tool-check.ts';
import { SHEET_CODES } from '../sheet/codes.ts';
import { LINT_CODES } from '../sheet/lint.ts';
import { CODE_PARTS, CODES, codesIn, meaningOf, SEED_CODES } from './index.ts';
import { RULES_CODES } from './rules.ts';

describe('the code registry', () => {
  it('holds each code in exactly one part of the table', () => {
    const seen = new Map<string, number>();
    CODE_PARTS.forEach((part, i) => {
      for (const code of Object.keys(part)) {
        expect(seen.get(code), `${code} is in parts ${seen.get(code)} and ${i}`).toBeUndefined();
        seen.set(code, i);
      }
    });
    // The API's codes join the table beside the parts (api-codes.ts), some of them also engine codes.
    const apiOnly = [...CODES.values()].filter((c) => !seen.has(c.code)).map((c) => c.domains);
    expect(apiOnly.every((d) => d.length === 1 && d[0] === 'api')).toBe(true);
    expect(seen.size + apiOnly.length).toBe(CODES.size);
  });

  it('names each code by its family: rule sheets, lints and Colang in lower_snake as the seed, the rest UPPER_SNAKE', () => {
    const lower = new Set(Object.keys(RULES_CODES));
    for (const c of CODES.values()) {
      expect(c.code).toMatch(lower.has(c.code) ? /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/ : /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(['error', 'warning', 'info']).toContain(c.severity);
      expect(c.domains.length).toBeGreaterThan(0);
      expect(c.meaning).not.toContain('\n');
      expect(meaningOf(c.code)).toBe(c.meaning);
    }
  });

  it('never holds two codes that differ only in case', () => {
    const folded = new Map<string, string>();
    for (const code of CODES.keys()) {
      expect(folded.get(code.toLowerCase()), `${code} and ${folded.get(code.toLowerCase())}`).toBeUndefined();
      folded.set(code.toLowerCase(), code);
    }
  });

  it('lists the codes the seeds name, once, spelled as the seeds spell them', () => {
    const bySeed = (seed: string) =>
      SEED_CODES.filter((c) => c.seed === seed)
        .map((c) => c.code)
        .sort();
    expect(bySeed('rule-sheets')).toEqual(['rule_action_unknown', 'rule_sheet_unsupported', 'write_ungoverned']);
    expect(bySeed('policy-documents')).toEqual([
      'APPROVER_ROLE_NOT_CAPABLE',
      'ARGUMENTS_REQUIRED',
      'CONTRADICTORY_BOUNDS',
      'FAIL_CLOSED_ROUTING',
      'GATEWAYS_NOT_UPGRADED',
      'INVALID_AMOUNT',
      'INVALID_TOOL_CONFIGURATION',
      'PARAMETER_ORDER',
      'TOO_MANY_APPROVERS',
      'UNKNOWN_APPROVER',
      'UNKNOWN_MEMBER',
    ]);
  });

  it('gives each reader its registry as a view: the same codes, the same words', () => {
    const views: [Record<string, unknown>, Parameters<typeof codesIn>[0]][] = [
      [POLICY_CODES, 'policy'],
      [SHEET_CODES, 'sheet'],
      [COLANG_CODES, 'colang'],
      [CATALOGUE_CODES, 'catalogue'],
      [CHECK_CODES, 'check'],
      [TOOL_CHECK_CODES, 'tool-check'],
      [DOCUMENT_CODES, 'document'],
      [LINT_CODES, 'lint'],
    ];
    for (const [view, domain] of views) expect(Object.keys(view)).toEqual(codesIn(domain).map((c) => c.code));
    expect(SHEET_CODES.rule_sheet_unsupported.when).toBe(CODES.get('rule_sheet_unsupported')?.when.sheet);
    expect(POLICY_CODES.FAIL_CLOSED_ROUTING.kind).toBe('warning');
    expect(CODES.get('FAIL_CLOSED_ROUTING')?.severity).toBe('warning');
    expect(CODES.get('write_ungoverned')?.severity).toBe('warning');
  });

  it('folds a code several readers answer into one entry with every domain', () => {
    expect(CODES.get('NOT_JSON')?.domains).toEqual(expect.arrayContaining(['policy', 'catalogue', 'document']));
    expect(CODES.get('CHECK_OPERAND')?.domains).toEqual(expect.arrayContaining(['catalogue', 'check']));
  });
});
