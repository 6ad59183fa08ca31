// The one code registry: every code once, UPPER_SNAKE, and every reader's registry a view of it.
import { describe, expect, it } from 'vitest';
import { COLANG_CODES } from '../colang/codes.ts';
import { DOCUMENT_CODES } from '../documents/codes.ts';
import { POLICY_CODES } from '../policy/codes.ts';
import { CATALOGUE_CODES } from '../rulebook/catalogue.ts';
import { CHECK_CODES } from '../rulebook/check.ts';
import { TOOL_CHECK_CODES } from '../rulebook/tool-check.ts';
import { SHEET_CODES } from '../sheet/codes.ts';
import { LINT_CODES } from '../sheet/lint.ts';
import { CODE_PARTS, CODES, codesIn, meaningOf } from './index.ts';

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

  it('names every code in UPPER_SNAKE, with a severity, a domain and a one-line meaning', () => {
    for (const c of CODES.values()) {
      expect(c.code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(['error', 'warning', 'info']).toContain(c.severity);
      expect(c.domains.length).toBeGreaterThan(0);
      expect(c.meaning).not.toContain('\n');
      expect(meaningOf(c.code)).toBe(c.meaning);
    }
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
    expect(SHEET_CODES.RULE_SHEET_UNSUPPORTED.when).toBe(CODES.get('RULE_SHEET_UNSUPPORTED')?.when.sheet);
    expect(POLICY_CODES.FAIL_CLOSED_ROUTING.kind).toBe('warning');
    expect(CODES.get('FAIL_CLOSED_ROUTING')?.severity).toBe('warning');
    expect(CODES.get('WRITE_UNGOVERNED')?.severity).toBe('warning');
  });

  it('folds a code several readers answer into one entry with every domain', () => {
    expect(CODES.get('NOT_JSON')?.domains).toEqual(expect.arrayContaining(['policy', 'catalogue', 'document']));
    expect(CODES.get('CHECK_OPERAND')?.domains).toEqual(expect.arrayContaining(['catalogue', 'check']));
  });
});
