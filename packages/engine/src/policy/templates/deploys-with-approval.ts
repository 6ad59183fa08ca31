// The deploys-with-approval template: deploys held for an owner or admin, status reads and rollbacks allowed, secrets never.
import { listExamples, listRule } from './allow-list.ts';
import { defineTemplate } from './define.ts';
import { describeList, describeRoles, describeSeconds } from './describe.ts';
import { unmatchedAction } from './patterns.ts';
import { SuiteBuilder } from './suite-builder.ts';

const NEVER = ['secrets.*'];
const ROLES = ['owner', 'admin'] as const;

/**
 * A deployment agent: every deploy waits for an owner or admin; reading deploy status and rolling
 * back are allowed, so recovering from a bad release never waits; secrets are never readable.
 */
export const deploysWithApproval = defineTemplate({
  name: 'deploys-with-approval',
  title: 'Deploys with approval',
  description: 'A deployment agent: deploys wait for an owner or admin, status reads and rollbacks go through, secrets never.',
  parameters: [
    {
      name: 'deploy_actions',
      type: 'patterns',
      description: 'The actions that deploy; each call waits for approval.',
      default: 'deploy.run,deploy.promote',
    },
    {
      name: 'approval_ttl_seconds',
      type: 'integer',
      description: 'How long a deploy approval request stays open, in seconds.',
      default: '3600',
    },
    {
      name: 'read_actions',
      type: 'patterns',
      description: 'The deploy status reads the agent may call freely.',
      default: 'deploy.status,deploy.logs',
    },
    {
      name: 'rollback_actions',
      type: 'patterns',
      description: 'The rollback actions the agent may call without approval.',
      default: 'deploy.rollback',
    },
  ] as const,
  actions: NEVER,
  build: (p) => {
    const rules = [
      listRule('deploy-reads', p.read_actions, 'allow'),
      {
        id: 'deploy-approval',
        actions: [...p.deploy_actions],
        effect: 'require_approval' as const,
        approvers: { roles: [...ROLES] },
        approval_ttl_seconds: p.approval_ttl_seconds,
      },
      listRule('rollback', p.rollback_actions, 'allow'),
      listRule('never', NEVER, 'deny'),
    ];
    const suite = new SuiteBuilder();
    listExamples('deploy-reads', p.read_actions, 'allow', suite);
    listExamples('deploy-approval', p.deploy_actions, 'require_approval', suite, 'run', { environment: 'production' });
    listExamples('rollback', p.rollback_actions, 'allow', suite, 'run');
    listExamples('never', NEVER, 'deny', suite);
    const all = [...p.read_actions, ...p.deploy_actions, ...p.rollback_actions, ...NEVER];
    const other = unmatchedAction(all, ['environments.delete', 'unlisted.write']);
    suite.call(`${other} matches no rule, so the default denies it`, suite.tool(other, other), {}, 'deny', null);
    return {
      document: { schema: 'tollgate/policy@1', default: 'deny', rules },
      examples: suite.build(),
      notes: {
        'deploy-reads': `Allows ${describeList(p.read_actions)}: the agent may always look at deployments.`,
        'deploy-approval': `Holds ${describeList(p.deploy_actions)} for approval by ${describeRoles([...ROLES])}; a request stays open ${describeSeconds(p.approval_ttl_seconds)}.`,
        rollback: `Allows ${describeList(p.rollback_actions)} without approval, so recovering from a bad release never waits.`,
        never: `Denies ${describeList(NEVER)}: a deployment agent never reads or changes secrets.`,
      },
    };
  },
});
