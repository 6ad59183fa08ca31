// The read-only template: a list of read actions allowed, everything else left to the deny default.
import { listExamples, listRule } from './allow-list.ts';
import { defineTemplate } from './define.ts';
import { describeList } from './describe.ts';
import { unmatchedAction } from './patterns.ts';
import { SuiteBuilder } from './suite-builder.ts';

/** An agent that may only read: the listed actions are allowed, every other call is denied by default. */
export const readOnly = defineTemplate({
  name: 'read-only',
  title: 'Read-only',
  description: 'An agent that may only call the listed read actions; every other call is denied by the default.',
  parameters: [
    {
      name: 'read_actions',
      type: 'patterns',
      description: 'The read actions the agent may call (comma-separated action patterns).',
      default: 'orders.read,orders.search,customers.read',
    },
  ] as const,
  actions: [],
  build: (p) => {
    const suite = new SuiteBuilder();
    listExamples('reads', p.read_actions, 'allow', suite);
    const write = unmatchedAction(p.read_actions, ['orders.update', 'customers.delete', 'refund.issue']);
    suite.call(`${write} matches no rule, so the default denies it`, suite.tool(write, write), {}, 'deny', null);
    return {
      document: { schema: 'tollgate/policy@1', default: 'deny', rules: [listRule('reads', p.read_actions, 'allow')] },
      examples: suite.build(),
      notes: { reads: `Allows ${describeList(p.read_actions)}; every other action falls to the deny default.` },
    };
  },
});
