// The support-refunds template: order reads, refunds allowed, held or denied by amount, payouts and exports never.
import { listExamples, listRule } from './allow-list.ts';
import { type AmountLadder, ladderExamples, ladderNotes, ladderRules } from './amount-ladder.ts';
import { defineTemplate } from './define.ts';
import { describeList } from './describe.ts';
import { unmatchedAction } from './patterns.ts';
import { SuiteBuilder } from './suite-builder.ts';

const NEVER = ['payouts.*', 'customers.export'];

/** A support agent that reads orders and issues refunds within limits (the complete example, examples/refunds.policy.json). */
export const supportRefunds = defineTemplate({
  name: 'support-refunds',
  title: 'Support refunds',
  description: 'A support agent reads orders and issues refunds: small ones alone, larger ones with approval, none over a limit.',
  parameters: [
    { name: 'currency', type: 'currency', description: 'The currency of the refund tool amount mapping (ISO 4217).', default: 'USD' },
    { name: 'auto_limit', type: 'amount', description: 'Refunds up to this amount are allowed without approval.', default: '100' },
    {
      name: 'approval_limit',
      type: 'amount',
      description: 'Refunds up to this amount may be approved; above it they are denied.',
      default: '1000',
    },
    {
      name: 'approval_ttl_seconds',
      type: 'integer',
      description: 'How long a refund approval request stays open, in seconds.',
      default: '14400',
    },
    {
      name: 'read_actions',
      type: 'patterns',
      description: 'The read actions the agent may call freely.',
      default: 'orders.read,orders.search',
    },
  ] as const,
  ordered: [['auto_limit', 'approval_limit']],
  actions: ['refund.issue', ...NEVER],
  build: (p) => {
    const ladder: AmountLadder = {
      stem: 'refund',
      noun: 'refund',
      action: 'refund.issue',
      tool: 'issue_refund',
      currency: p.currency,
      lower: p.auto_limit,
      upper: p.approval_limit,
      roles: ['owner', 'admin', 'approver'],
      ttl: p.approval_ttl_seconds,
      args: { order_id: 'ord_1001' },
    };
    const rules = [listRule('read-orders', p.read_actions, 'allow'), ...ladderRules(ladder), listRule('never', NEVER, 'deny')];
    const suite = new SuiteBuilder();
    listExamples('read-orders', p.read_actions, 'allow', suite);
    ladderExamples(ladder, suite);
    listExamples('never', NEVER, 'deny', suite, 'send');
    const other = unmatchedAction([...p.read_actions, 'refund.issue', ...NEVER], ['customers.delete', 'unlisted.write']);
    suite.call(`${other} matches no rule, so the default denies it`, suite.tool(other, other), {}, 'deny', null);
    return {
      document: { schema: 'tollgate/policy@1', default: 'deny', rules },
      examples: suite.build(),
      notes: {
        'read-orders': `Allows ${describeList(p.read_actions)}, the reads a support agent needs.`,
        ...ladderNotes(ladder),
        never: `Denies ${describeList(NEVER)} whatever the amount: a support agent never sends money out or exports customers.`,
      },
      maxAmount: { value: p.approval_limit, currency: p.currency },
    };
  },
});
