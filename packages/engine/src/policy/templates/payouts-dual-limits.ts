// The payouts-with-dual-limits template: payouts allowed up to a lower limit, held up to an upper one, denied above.
import { listExamples, listRule } from './allow-list.ts';
import { type AmountLadder, ladderExamples, ladderNotes, ladderRules } from './amount-ladder.ts';
import { defineTemplate } from './define.ts';
import { describeList } from './describe.ts';
import { unmatchedAction } from './patterns.ts';
import { SuiteBuilder } from './suite-builder.ts';

/** A payouts agent with two limits: allowed up to the lower, approval by an owner or admin up to the upper, denied above. */
export const payoutsDualLimits = defineTemplate({
  name: 'payouts-with-dual-limits',
  title: 'Payouts with dual limits',
  description:
    'A payouts agent: payouts up to a lower limit go through, up to an upper limit wait for an owner or admin, above it are denied.',
  parameters: [
    { name: 'currency', type: 'currency', description: 'The currency of the payout tool amount mapping (ISO 4217).', default: 'USD' },
    { name: 'auto_limit', type: 'amount', description: 'Payouts up to this amount are allowed without approval.', default: '500' },
    {
      name: 'approval_limit',
      type: 'amount',
      description: 'Payouts up to this amount may be approved; above it they are denied.',
      default: '5000',
    },
    {
      name: 'approval_ttl_seconds',
      type: 'integer',
      description: 'How long a payout approval request stays open, in seconds.',
      default: '14400',
    },
    {
      name: 'read_actions',
      type: 'patterns',
      description: 'The read actions the agent may call freely.',
      default: 'payouts.read,balances.read',
    },
  ] as const,
  ordered: [['auto_limit', 'approval_limit']],
  actions: ['payouts.send'],
  build: (p) => {
    const ladder: AmountLadder = {
      stem: 'payout',
      noun: 'payout',
      action: 'payouts.send',
      tool: 'send_payout',
      currency: p.currency,
      lower: p.auto_limit,
      upper: p.approval_limit,
      roles: ['owner', 'admin'],
      ttl: p.approval_ttl_seconds,
      args: { recipient: 'acct_2001' },
    };
    const suite = new SuiteBuilder();
    listExamples('payout-reads', p.read_actions, 'allow', suite);
    ladderExamples(ladder, suite);
    const other = unmatchedAction([...p.read_actions, 'payouts.send'], ['payouts.cancel', 'unlisted.write']);
    suite.call(`${other} matches no rule, so the default denies it`, suite.tool(other, other), {}, 'deny', null);
    return {
      document: {
        schema: 'tollgate/policy@1',
        default: 'deny',
        rules: [...ladderRules(ladder), listRule('payout-reads', p.read_actions, 'allow')],
      },
      examples: suite.build(),
      notes: { ...ladderNotes(ladder), 'payout-reads': `Allows ${describeList(p.read_actions)}, the reads a payouts agent needs.` },
      maxAmount: { value: p.approval_limit, currency: p.currency },
    };
  },
});
