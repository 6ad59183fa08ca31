// Running a rule set: each rule's own result and version, the set's verdict over mixed results, and a
// failing judge failing the whole run with no result at all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import refundsExample from '../../../../examples/refunds.policy.json' with { type: 'json' };
import { compilePolicy } from '../policy/compile.ts';
import type { Member } from '../policy/types.ts';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { compileRules } from '../sheet/compile.ts';
import { judgeRule, type LoadedRule, type RuleOutcome, RulesetRunError, runRuleset } from './run-ruleset.ts';

const catalogue = (() => {
  const r = readCatalogue(
    `tools:
  - { name: read_order, action: orders.read, kind: read }
  - { name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /amount, currency: USD } }
  - { name: send_payout, action: payouts.send, kind: write, amount: { pointer: /amount, currency: USD } }
`,
    'yaml',
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.catalogue;
})();
const members: Member[] = [{ id: '00000000-0000-4000-8000-000000000001', role: 'owner', signing: true }];

function policyRule(doc: unknown, version_id: number, pinned = true): LoadedRule {
  const r = compilePolicy(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { rule_id: 'policies/refunds.policy.json', version_id, pinned, kind: 'policy', policy: r.policy };
}
function sheetRule(text: string, version_id = 1): LoadedRule {
  const r = compileRules(text, 'sheet');
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const rule: LoadedRule = { rule_id: 'sheets/support.rules.yaml', version_id, pinned: false, kind: 'sheet', rulebook: r.rulebook };
  if (r.overlay !== undefined) rule.overlay = r.overlay;
  return rule;
}
const REFUNDS = policyRule(refundsExample, 2);
const SHEET = sheetRule('rules:\n  - action: send_payout\n    requires_confirmation: true\n  - action: read_order\n    never: true\n');
const options = { catalogue, members, now: new Date('2026-01-01T00:00:00Z') };
const call = (tool: string, amount?: string) => ({ tool, arguments: amount === undefined ? {} : { amount } });

describe('runRuleset', () => {
  it('passes only when every rule passes, and carries each rule with the version that ran', async () => {
    const run = await runRuleset([REFUNDS, SHEET], call('issue_refund', '50'), options);
    expect(run.verdict).toBe('pass');
    expect(run.failed).toEqual([]);
    expect(run.results).toEqual([
      expect.objectContaining({
        rule_id: 'policies/refunds.policy.json',
        version_id: 2,
        pinned: true,
        result: 'pass',
        rule: 'refund-auto',
      }),
      expect.objectContaining({ rule_id: 'sheets/support.rules.yaml', version_id: 1, pinned: false, result: 'pass', decision: 'allow' }),
    ]);
  });

  it('fails when one rule fails though the others pass, naming the rules that failed', async () => {
    const run = await runRuleset([REFUNDS, SHEET], call('read_order'), options);
    expect(run.verdict).toBe('fail');
    expect(run.failed).toEqual(['sheets/support.rules.yaml']);
    expect(run.results.map((r) => [r.rule_id, r.result, r.decision])).toEqual([
      ['policies/refunds.policy.json', 'pass', 'allow'],
      ['sheets/support.rules.yaml', 'fail', 'refuse'],
    ]);
  });

  it('fails the set when a rule holds the call for a person, though nothing else fails: only passing rules pass it', async () => {
    const held = await runRuleset([REFUNDS, SHEET], call('issue_refund', '500'), options);
    expect(held).toMatchObject({ verdict: 'fail', failed: ['policies/refunds.policy.json'], held: ['policies/refunds.policy.json'] });
    expect(held.results[0]).toMatchObject({ result: 'hold', decision: 'require_approval', rule: 'refund-approval' });
    // send_payout: the policy denies payouts (fail), the sheet asks for confirmation (hold).
    const mixed = await runRuleset([REFUNDS, SHEET], call('send_payout', '5'), options);
    expect(mixed).toMatchObject({
      verdict: 'fail',
      failed: ['policies/refunds.policy.json', 'sheets/support.rules.yaml'],
      held: ['sheets/support.rules.yaml'],
    });
  });

  it('gives one pass or fail for any results: pass exactly when every rule passes; failed and held in pin order', async () => {
    const outcome = fc.constantFrom<RuleOutcome>('pass', 'hold', 'fail');
    await fc.assert(
      fc.asyncProperty(fc.array(outcome, { minLength: 1, maxLength: 8 }), async (outcomes) => {
        const rules = outcomes.map((_, i) => ({ ...REFUNDS, rule_id: `policies/r${i}.policy.json` }));
        const judge = (rule: LoadedRule, c: Parameters<typeof judgeRule>[1], o: Parameters<typeof judgeRule>[2]) => ({
          ...judgeRule(rule, c, o),
          result: outcomes[rules.findIndex((r) => r.rule_id === rule.rule_id)] as RuleOutcome,
        });
        const run = await runRuleset(rules, call('issue_refund', '50'), { ...options, judge });
        const ids = (want: (o: RuleOutcome) => boolean) => rules.filter((_, i) => want(outcomes[i] as RuleOutcome)).map((r) => r.rule_id);
        expect(run.verdict).toBe(outcomes.every((o) => o === 'pass') ? 'pass' : 'fail');
        expect(run.failed).toEqual(ids((o) => o !== 'pass'));
        expect(run.held).toEqual(ids((o) => o === 'hold'));
        expect(run.results.map((r) => r.result)).toEqual(outcomes);
      }),
      { numRuns: 100 },
    );
  });

  it('never lets a value that cannot be read pass: an unknown tool and a malformed amount fail', async () => {
    const unknown = await runRuleset([REFUNDS], call('wire_money', '5'), options);
    expect(unknown.results[0]).toMatchObject({ result: 'fail', code: 'TOOL_UNKNOWN' });
    const malformed = await runRuleset([REFUNDS], { tool: 'issue_refund', arguments: { amount: '5e2' } }, options);
    expect(malformed).toMatchObject({ verdict: 'fail' });
    expect(malformed.results[0]?.code).toBe('INVALID_AMOUNT');
  });

  it('judges a pinned older version by its own text', async () => {
    const stricter = { ...refundsExample, rules: refundsExample.rules.map((r) => (r.id === 'refund-auto' ? { ...r, effect: 'deny' } : r)) };
    const run = await runRuleset([policyRule(stricter, 1)], call('issue_refund', '50'), options);
    expect(run.results[0]).toMatchObject({ version_id: 1, result: 'fail', rule: 'refund-auto' });
  });

  it('fails the whole run when a judge throws midway, though other rules answered', async () => {
    const judge = (rule: LoadedRule, c: Parameters<typeof judgeRule>[1], o: Parameters<typeof judgeRule>[2]) => {
      if (rule.kind === 'sheet') throw new Error('judge crashed');
      return judgeRule(rule, c, o);
    };
    const run = runRuleset([REFUNDS, SHEET], call('issue_refund', '50'), { ...options, judge });
    await expect(run).rejects.toBeInstanceOf(RulesetRunError);
    await expect(run).rejects.toMatchObject({ rule: 'sheets/support.rules.yaml', reason: 'threw' });
  });

  it('fails the whole run when a judge gives no answer in time', async () => {
    const judge = (rule: LoadedRule) => new Promise<never>(() => void rule);
    const run = runRuleset([REFUNDS, SHEET], call('issue_refund', '50'), { ...options, judge, timeoutMs: 20 });
    await expect(run).rejects.toMatchObject({ name: 'RulesetRunError', reason: 'timed_out', rule: 'policies/refunds.policy.json' });
  });

  it('fails the run when a synchronous judge answers only after the deadline', async () => {
    const slow = (rule: LoadedRule, c: Parameters<typeof judgeRule>[1], o: Parameters<typeof judgeRule>[2]) => {
      const until = performance.now() + 15;
      while (performance.now() < until) {
        // busy: a judge the timer cannot interrupt
      }
      return judgeRule(rule, c, o);
    };
    const run = runRuleset([REFUNDS], call('issue_refund', '50'), { ...options, judge: slow, timeoutMs: 5 });
    await expect(run).rejects.toMatchObject({ reason: 'timed_out', rule: 'policies/refunds.policy.json' });
  });

  it('holds the catalogue’s own limits for a set of policies alone as for one that pins a sheet', async () => {
    const limited = (() => {
      const r = readCatalogue(
        `tools:
  - { name: read_order, action: orders.read, kind: read, at_most: 1, after: [issue_refund] }
  - { name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /amount, currency: USD }, checks: [{field: region, in: [EU]}] }
  - { name: send_payout, action: payouts.send, kind: write, amount: { pointer: /amount, currency: USD }, confirmation: Pay out? }
`,
        'yaml',
      );
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      return r.catalogue;
    })();
    const governsNothing = sheetRule('rules:\n  - action: export_customers\n    never: true\n');
    const history = fc.array(fc.record({ tool: fc.constantFrom('read_order', 'issue_refund', 'send_payout') }), { maxLength: 3 });
    const region = fc.constantFrom<unknown>('EU', 'US', undefined, 7);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('read_order', 'issue_refund', 'send_payout'), region, history, async (tool, where, past) => {
        const args = { amount: '50', ...(where === undefined ? {} : { region: where }) };
        const c = { tool, arguments: args, history: past };
        const opts = { ...options, catalogue: limited };
        const policyOnly = (await runRuleset([REFUNDS], c, opts)).results[0] as { decision: string; code: string | null };
        const sheet = (await runRuleset([governsNothing], c, opts)).results[0] as { decision: string; code: string | null };
        if (sheet.decision === 'refuse' || sheet.decision === 'confirm') {
          // The catalogue refused or asked: the policy's rule says so too (unless its own deny comes first for a confirmation).
          if (sheet.decision === 'refuse') expect([policyOnly.decision, policyOnly.code]).toEqual(['refuse', sheet.code]);
          else expect(['confirm', 'deny', 'require_approval']).toContain(policyOnly.decision);
        } else {
          expect(policyOnly.decision).not.toBe('refuse');
          expect(policyOnly.decision).not.toBe('confirm');
        }
      }),
      { numRuns: 200 },
    );
  });
});
