// Templates: every template's draft validates and passes its own examples, with defaults and other parameters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, normalizeDecimal } from '../../conditions/decimal.ts';
import { checkDraft } from './check-draft.ts';
import { createFromTemplate, getTemplate, listTemplates, TEMPLATES } from './index.ts';

const AMOUNT_TEMPLATES = ['support-refunds', 'payouts-with-dual-limits'];

describe('the registry', () => {
  it('lists four templates with kebab-case names, titles, one-line descriptions and typed parameters', () => {
    const list = listTemplates();
    expect(list.map((t) => t.name)).toEqual(['support-refunds', 'read-only', 'deploys-with-approval', 'payouts-with-dual-limits']);
    for (const t of list) {
      expect(t.name).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
      expect(t.title).not.toBe('');
      expect(t.description).toMatch(/^[^\n]+$/);
      for (const p of t.parameters) {
        expect(['currency', 'amount', 'integer', 'patterns']).toContain(p.type);
        expect(p.name).toMatch(/^[a-z_]+$/);
        expect(p.description).not.toBe('');
      }
    }
  });

  it('finds a template by name, and nothing for an unknown one', () => {
    expect(getTemplate('read-only')?.title).toBe('Read-only');
    expect(getTemplate('nope')).toBeUndefined();
  });
});

describe('drafts with default parameters', () => {
  for (const t of TEMPLATES) {
    it(`${t.name}: validates, is revision 1, and passes all its examples`, () => {
      const draft = checkDraft(createFromTemplate(t.name));
      const defaults = Object.fromEntries(t.parameters.map((p) => [p.name, p.default]));
      expect(draft.parameters).toEqual(defaults);
    });
  }

  it('support-refunds with defaults is the complete reference example (examples/refunds.policy.json)', () => {
    const draft = checkDraft(createFromTemplate('support-refunds'));
    expect(draft.document).toEqual({
      schema: 'tollgate/policy@1',
      default: 'deny',
      rules: [
        { id: 'read-orders', actions: ['orders.read', 'orders.search'], effect: 'allow' },
        { id: 'refund-over-limit', actions: ['refund.issue'], amount: { currency: 'USD', gt: '1000' }, effect: 'deny' },
        {
          id: 'refund-approval',
          actions: ['refund.issue'],
          amount: { currency: 'USD', gt: '100', lte: '1000' },
          effect: 'require_approval',
          approvers: { roles: ['owner', 'admin', 'approver'] },
          approval_ttl_seconds: 14400,
        },
        { id: 'refund-auto', actions: ['refund.issue'], amount: { currency: 'USD', lte: '100' }, effect: 'allow' },
        { id: 'never', actions: ['payouts.*', 'customers.export'], effect: 'deny' },
      ],
    });
    expect(draft.delegation).toEqual({
      permissions: ['orders.read', 'orders.search', 'refund.issue'],
      max_amount: { value: '1000', currency: 'USD' },
    });
    expect(draft.notes['refund-approval']).toBe(
      'Holds refunds over 100 USD up to 1000 USD for approval by an owner, admin or approver; a request stays open 4 hours.',
    );
  });

  it('support-refunds examples call each threshold exactly, below and above it, without an amount, and a denied action', () => {
    const { examples } = checkDraft(createFromTemplate('support-refunds'));
    const refunds = examples.examples.filter((e) => e.tool === 'issue_refund');
    expect(refunds.map((e) => [e.arguments?.amount, e.expect.decision, e.expect.rule])).toEqual([
      ['99.99', 'allow', 'refund-auto'],
      ['100', 'allow', 'refund-auto'],
      ['100.01', 'require_approval', 'refund-approval'],
      ['1000', 'require_approval', 'refund-approval'],
      ['1000.01', 'deny', 'refund-over-limit'],
      [undefined, 'deny', 'refund-over-limit'],
      ['-5', 'deny', null],
    ]);
    expect(examples.tools.find((t) => t.name === 'issue_refund')).toEqual({
      name: 'issue_refund',
      action: 'refund.issue',
      amount: { pointer: '/amount', currency: 'USD' },
    });
    const denied = examples.examples.filter((e) => e.expect.decision === 'deny').map((e) => e.tool);
    expect(denied).toEqual(expect.arrayContaining(['payouts.send', 'customers.export', 'customers.delete']));
  });

  it('read-only and deploys-with-approval give no max_amount', () => {
    expect(checkDraft(createFromTemplate('read-only')).delegation).toEqual({
      permissions: ['orders.read', 'orders.search', 'customers.read'],
    });
    expect(checkDraft(createFromTemplate('deploys-with-approval')).delegation).toEqual({
      permissions: ['deploy.status', 'deploy.logs', 'deploy.run', 'deploy.promote', 'deploy.rollback'],
    });
  });
});

describe('drafts with other parameters', () => {
  const cases: [string, Record<string, string>][] = [
    ['support-refunds', { currency: 'EUR', auto_limit: '0', approval_limit: '0.01' }],
    ['support-refunds', { auto_limit: '49.99', approval_limit: '50', approval_ttl_seconds: '60' }],
    ['support-refunds', { auto_limit: '999999999999999.999', approval_limit: '1000000000000000', approval_ttl_seconds: '2592000' }],
    ['support-refunds', { auto_limit: '0.000000000000000001', approval_limit: '0.000000000000000002' }],
    ['support-refunds', { read_actions: 'orders.*, tickets.read,orders.read', currency: 'JPY' }],
    ['support-refunds', { read_actions: 'issue_refund,customers', approval_limit: '250.50' }],
    ['payouts-with-dual-limits', { currency: 'GBP', auto_limit: '1', approval_limit: '1.000000000000000001' }],
    ['payouts-with-dual-limits', { auto_limit: '10.10', approval_limit: '20.200', read_actions: 'payouts.list' }],
    ['read-only', { read_actions: 'docs.*' }],
    ['read-only', { read_actions: 'customers.delete,orders.update,refund.issue,unlisted-1.write' }],
    ['deploys-with-approval', { deploy_actions: 'deploy.*', read_actions: 'status.read', rollback_actions: 'rollback.*' }],
    ['deploys-with-approval', { deploy_actions: 'release.publish', approval_ttl_seconds: '900', rollback_actions: 'release.revert' }],
  ];
  for (const [name, params] of cases) {
    it(`${name} ${JSON.stringify(params)}`, () => {
      checkDraft(createFromTemplate(name, params));
    });
  }

  it('an amount limit of exactly 10^15 is accepted; the example above it stays a valid amount', () => {
    const draft = checkDraft(createFromTemplate('payouts-with-dual-limits', { approval_limit: '1000000000000000' }));
    expect(draft.delegation.max_amount).toEqual({ value: '1000000000000000', currency: 'USD' });
    expect(draft.examples.examples.map((e) => e.arguments?.amount)).toContain('1000000000000000.01');
  });

  it('a wildcard read pattern is called through an action it matches', () => {
    const draft = checkDraft(createFromTemplate('read-only', { read_actions: 'docs.*' }));
    expect(draft.examples.tools.map((t) => t.action)).toEqual(['docs.read', 'orders.update']);
  });
});

/** Non-negative decimal strings up to 10^15 with up to 18 fraction digits, trailing zeros included. */
const amountText = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 15n }),
    fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 18 })),
  )
  .map(([int, frac]) => (frac === null ? `${int}` : `${int}.${frac}`))
  .filter((s) => compareDecimal(s, '1000000000000000') <= 0);

const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 18 });

/** Two limits with the same integer part: close together, down to the 18th fraction digit. */
const closeTexts = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), digits, digits)
  .map(([int, a, b]): [string, string] => [`${int}.${a}`, `${int}.${b}`]);

const limitPair = fc
  .oneof(fc.tuple(amountText, amountText), closeTexts)
  .filter(([a, b]) => compareDecimal(a, b) !== 0)
  .map(([a, b]): [string, string] => (compareDecimal(a, b) < 0 ? [a, b] : [b, a]));

describe('property: any ordered pair of limits gives a valid draft whose examples pass', () => {
  for (const name of AMOUNT_TEMPLATES) {
    it(name, () => {
      fc.assert(
        fc.property(
          limitPair,
          fc.stringMatching(/^[A-Z]{3}$/),
          fc.integer({ min: 60, max: 2_592_000 }),
          ([lower, upper], currency, ttl) => {
            const params = { auto_limit: lower, approval_limit: upper, currency, approval_ttl_seconds: String(ttl) };
            const draft = checkDraft(createFromTemplate(name, params));
            expect(draft.delegation.max_amount).toEqual({ value: normalizeDecimal(upper), currency });
            const amounts = draft.examples.examples.map((e) => e.arguments?.amount);
            expect(amounts).toContain(normalizeDecimal(lower));
            expect(amounts).toContain(normalizeDecimal(upper));
            expect(amounts).toContain(undefined);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});

const segment = fc.string({ unit: fc.constantFrom(...'abcz09_-'), minLength: 1, maxLength: 6 });
const pattern = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([segments, wild]) => segments.join('.') + (wild ? '.*' : ''));

describe('property: read-only accepts any list of valid patterns', () => {
  it('gives a valid draft whose examples pass', () => {
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 8 }), (patterns) => {
        const draft = checkDraft(createFromTemplate('read-only', { read_actions: patterns.join(',') }));
        expect(draft.delegation.permissions).toEqual([...new Set(patterns)]);
      }),
      { numRuns: 300 },
    );
  });
});
