// The demo workspace a fresh data folder is seeded with (serve --demo): members of every role, the agent support-bot
// with its catalogue, rule sheet and the refunds policy of examples/refunds.policy.json with its example suite, and
// refunds-bot running the Support rule set. Seeded once.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from './context.ts';
import { lifecycleOf } from './rulesets/lifecycle.ts';
import { ROLE_GRANTS, type Role } from './state/members/model.ts';
import { authorizeRunningBindings } from './state/tools/adopt-bindings.ts';

const SYSTEM = { kind: 'system', label: 'demo seed' } as const;
const DEMO_RULESET = 'rulesets/support.ruleset.json';
const REFUNDS = readFileSync(new URL('../../../../examples/refunds.policy.json', import.meta.url), 'utf8');
const REFUNDS_EXAMPLES = readFileSync(new URL('../../../../examples/refunds.examples.json', import.meta.url), 'utf8');

/** support-bot's agent document with a spending limit, for tests of the delegation's hard limit. */
export const AGENT_WITH_SPENDING_LIMIT = `catalogue: catalogue.yaml
rulebook: sheets/support.rules.yaml
policy: policies/refunds.policy.json
delegation:
  actions: [orders.*, refund.issue, payouts.send, customers.*]
  spending_limit: { amount: "5000", currency: USD }
disclosure: rule
`;

export const DEMO_DOCUMENTS: Record<string, string> = {
  'catalogue.yaml': `# The tools support-bot may call.
tools:
  - { name: read_order, action: orders.read, kind: read }
  - { name: search_orders, action: orders.search, kind: read }
  - { name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /amount, currency: USD } }
  - { name: send_payout, action: payouts.send, kind: write, amount: { pointer: /amount, currency: USD } }
  - { name: export_customers, action: customers.export, kind: write }
  - { name: read_customer, action: customers.read, kind: read }
`,
  'sheets/support.rules.yaml': `# support-bot's rules, as a sheet a person can read aloud.
rules:
  - action: issue_refund
    at_most: 5
  - action: send_payout
    requires_confirmation: true
  - action: export_customers
    never: true
`,
  'policies/refunds.policy.json': REFUNDS,
  'policies/refunds.examples.json': REFUNDS_EXAMPLES,
  'rulesets/support.ruleset.json': `${JSON.stringify(
    {
      name: 'Support',
      description: 'What refunds-bot is held to: the refunds policy at a reviewed version, and the support sheet.',
      tags: ['support', 'refunds'],
      // Every pin names its version, as the API writes a set: the sheet and the policy are both at version 1.
      pins: [
        { rule_id: 'policies/refunds.policy.json', version_id: 1 },
        { rule_id: 'sheets/support.rules.yaml', version_id: 1 },
      ],
    },
    null,
    2,
  )}\n`,
  'agents/support-bot.agent.yaml': `# support-bot: reads orders, issues refunds within the policy.
catalogue: catalogue.yaml
rulebook: sheets/support.rules.yaml
policy: policies/refunds.policy.json
delegation:
  # No spending limit: a delegation with one refuses every tool without an amount mapping (docs/policy.md,
  # "Amounts"), and support-bot reads orders.
  actions: [orders.*, refund.issue, payouts.send, customers.*]
disclosure: rule
`,
  'agents/refunds-bot.agent.yaml': `# refunds-bot: runs the Support rule set, so an edit to the refunds policy changes nothing for it
# until someone re-pins the set and activates the new version.
catalogue: catalogue.yaml
ruleset: rulesets/support.ruleset.json
delegation:
  actions: [orders.*, refund.issue]
disclosure: rule
`,
  'settings.yaml': `approval_ttl_seconds: 86400
approved_rulesets_only: false
`,
};

const DEMO_MEMBERS: { name: string; role: Role }[] = [
  { name: 'olivia', role: 'owner' },
  { name: 'adam', role: 'admin' },
  { name: 'april', role: 'approver' },
  { name: 'dev', role: 'developer' },
  { name: 'vic', role: 'viewer' },
];

export interface DemoKeys {
  members: { name: string; role: Role; id: string; key: string }[];
  agents: { name: string; key: string }[];
}

/** Seeds the demo once; returns the keys when it seeded, undefined when the folder was seeded already. */
export async function seedDemo(ctx: AppContext): Promise<DemoKeys | undefined> {
  const keysFile = join(ctx.dataDir, 'demo-keys.json');
  const seeded = (await ctx.state.countMembers()) > 0;
  if (seeded || existsSync(keysFile)) return undefined;
  for (const [id, text] of Object.entries(DEMO_DOCUMENTS)) {
    if (!(await ctx.store.get(id))) await ctx.store.save({ id, text, author: SYSTEM, reason: 'the demo workspace' });
  }
  await lifecycleOf(ctx.store).update(DEMO_RULESET, { status: 'active' }, SYSTEM.label, ctx.now());
  // The demo's tools run at once: their bindings are authorized by the demo seeding itself (docs/catalogue.md).
  await authorizeRunningBindings(ctx.state, ctx.store, { id: 'system', name: SYSTEM.label }, ctx.now());
  const keys: DemoKeys = { members: [], agents: [] };
  for (const m of DEMO_MEMBERS) {
    const member = await ctx.state.createMember(m.name, m.role);
    keys.members.push({
      name: m.name,
      role: m.role,
      id: member.id,
      key: await ctx.state.createKey({ member: member.id }, [...ROLE_GRANTS[m.role]]),
    });
  }
  keys.agents.push({ name: 'support-bot', key: await ctx.state.createKey({ agent: 'support-bot' }) });
  keys.agents.push({ name: 'refunds-bot', key: await ctx.state.createKey({ agent: 'refunds-bot' }) });
  writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}
