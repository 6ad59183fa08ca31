// Test helper: asserts that a template's draft is valid, revision 1, well-formed, and that all its examples pass.
import { expect } from 'vitest';
import { compilePolicy } from '../compile.ts';
import { runPolicyTests, validateExampleSuite } from '../policy-tests.ts';
import type { Effect } from '../types.ts';
import { validatePolicy } from '../validate.ts';
import type { TemplateResult } from './types.ts';

const RANK: Record<Effect, number> = { deny: 2, require_approval: 1, allow: 0 };

/** Checks every promise a template makes about its draft; returns the draft for further checks. */
export function checkDraft(result: TemplateResult): Extract<TemplateResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a draft, got ${JSON.stringify(result.errors)}`);
  const { document, examples, notes, delegation } = result;
  const validation = validatePolicy(document, { tools: examples.tools });
  expect(validation.errors).toEqual([]);
  expect(validation.warnings).toEqual([]);
  expect(validation.revision).toBe(1);
  expect(validateExampleSuite(examples)).toEqual([]);
  expect(document.schema).toBe('tollgate/policy@1');
  expect(document.default).toBe('deny');
  for (const rule of document.rules) {
    expect(Object.keys(rule).filter((k) => ['description', 'guard', 'when', 'tools'].includes(k))).toEqual([]);
    if (rule.approvers) expect(Object.keys(rule.approvers)).toEqual(['roles']);
  }
  // The strictest amount rule of an action comes first: effects never get stricter down the document.
  const actions = new Set(document.rules.filter((r) => r.amount).flatMap((r) => r.actions));
  for (const action of actions) {
    const ranks = document.rules.filter((r) => r.amount && r.actions.includes(action)).map((r) => RANK[r.effect]);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
  }
  expect(Object.keys(notes).sort()).toEqual(document.rules.map((r) => r.id).sort());
  for (const note of Object.values(notes)) expect(note).toMatch(/^[^\n]+$/);
  expect(delegation.permissions.length).toBeGreaterThan(0);

  const compiled = compilePolicy(document);
  if (!compiled.ok) throw new Error('a valid document compiles');
  const report = runPolicyTests(compiled.policy, examples);
  expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
  expect(report.passed).toBe(examples.examples.length);
  // Every rule decides at least one example, and some example is denied.
  const deciding = new Set(report.results.map((r) => r.actual?.rule));
  for (const rule of document.rules) expect(deciding.has(rule.id)).toBe(true);
  expect(report.results.some((r) => r.actual?.decision === 'deny')).toBe(true);
  return result;
}
